import type { Db } from './db';
import type { Dialect } from './db/dialect';
import { AdminRepo } from './modules/admin';
import { CodeRepo } from './modules/auth/code-repo';
import { SessionRepo } from './modules/auth';
import { EmojiRepo } from './modules/emoji';
import { FriendRepo } from './modules/friend';
import { GroupRepo } from './modules/group';
import { MessageRepo } from './modules/im';
import { MomentRepo } from './modules/moments';
import { OpsRepo } from './modules/ops';
import { PushRepo } from './modules/push';
import { AnnouncementRepo, ConfigRepo, InviteRepo } from './modules/system';
import { FileRepo } from './modules/upload';
import { DepartmentRepo, UserRepo } from './modules/user';

/** Every repository, one per table family, built once per process and handed to the services. */
export interface Repos {
  users: UserRepo;
  departments: DepartmentRepo;
  sessions: SessionRepo;
  codes: CodeRepo;
  friends: FriendRepo;
  groups: GroupRepo;
  messages: MessageRepo;
  moments: MomentRepo;
  files: FileRepo;
  emoji: EmojiRepo;
  announcements: AnnouncementRepo;
  invites: InviteRepo;
  config: ConfigRepo;
  ops: OpsRepo;
  admin: AdminRepo;
  push: PushRepo;
}

export function createRepos(db: Db, dialect: Dialect): Repos {
  return {
    users: new UserRepo(db),
    departments: new DepartmentRepo(db),
    sessions: new SessionRepo(db, dialect),
    codes: new CodeRepo(db),
    friends: new FriendRepo(db),
    groups: new GroupRepo(db),
    messages: new MessageRepo(db, dialect),
    moments: new MomentRepo(db),
    files: new FileRepo(db),
    emoji: new EmojiRepo(db),
    announcements: new AnnouncementRepo(db),
    invites: new InviteRepo(db),
    config: new ConfigRepo(db),
    ops: new OpsRepo(db),
    admin: new AdminRepo(db),
    push: new PushRepo(db),
  };
}
