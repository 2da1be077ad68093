import type { Db } from './db';
import type { Dialect } from './db/dialect';
import { AccountRepo } from './modules/account/erase-repo';
import { ExportRepo } from './modules/account/export-repo';
import { AdminRepo } from './modules/admin/repo';
import { CodeRepo } from './modules/auth/code-repo';
import { BlockRepo } from './modules/block/repo';
import { SessionRepo } from './modules/auth/session-repo';
import { FactorRepo } from './modules/auth/factors-repo';
import { PasskeyRepo } from './modules/auth/passkeys-repo';
import { AccessTokenRepo } from './modules/auth/access-tokens-repo';
import { RobotRepo } from './modules/robot/repo';
import { BotRepo } from './modules/bot/repo';
import { DeviceRepo } from './modules/auth/device-repo';
import { TwoStepRepo } from './modules/auth/two-step-repo';
import { IdentityRepo } from './modules/auth/identity-repo';
import { QrLoginRepo } from './modules/qr/login-repo';
import { SsoRepo } from './modules/sso/repo';
import { EmojiRepo } from './modules/emoji/repo';
import { FavoriteRepo } from './modules/favorite/repo';
import { FriendRepo } from './modules/friend/repo';
import { KeywordRepo } from './modules/keywords/repo';
import { GroupRepo } from './modules/group/repo';
import { ConversationRepo } from './modules/im/conversation-repo';
import { HistoryRepo } from './modules/im/history-repo';
import { MessageRepo } from './modules/im/repo';
import { SearchRepo } from './modules/im/search-repo';
import { MessageStoreRepo } from './modules/im/store-repo';
import { PinRepo } from './modules/im/pins-repo';
import { ChainRepo } from './modules/im/chains-repo';
import { ReactionRepo } from './modules/im/reactions-repo';
import { PollRepo } from './modules/im/polls-repo';
import { ReceiptRepo } from './modules/im/receipts-repo';
import { TypingRepo } from './modules/im/typing-repo';
import { EditRepo } from './modules/im/edits-repo';
import { ForwardRecordRepo } from './modules/im/record-repo';
import { MomentReactionRepo } from './modules/moments/reactions-repo';
import { MomentRepo } from './modules/moments/repo';
import { OpsRepo } from './modules/ops/repo';
import { PushRepo } from './modules/push/repo';
import { ReportRepo } from './modules/report/repo';
import { RetentionRepo } from './modules/retention/repo';
import { AnnouncementRepo } from './modules/system/announcement-repo';
import { ConfigRepo, InviteRepo } from './modules/system/repo';
import { FileRepo } from './modules/upload/repo';
import { DepartmentRepo } from './modules/user/department-repo';
import { UserRepo } from './modules/user/repo';

/**
 * Every repository, one per table family, built once per process and handed to the services. Each
 * is imported from its own file, not its module's index.ts: an index also offers services, which
 * name `Repos`, and this file stays a leaf beneath them.
 */
export interface Repos {
  users: UserRepo;
  departments: DepartmentRepo;
  sessions: SessionRepo;
  /** Second factors: what a user has, `users.two_step`, an admin's reset. */
  factors: FactorRepo;
  /** Passkeys (WebAuthn credentials) and the challenges handed out for them. */
  passkeys: PasskeyRepo;
  accessTokens: AccessTokenRepo;
  robots: RobotRepo;
  bots: BotRepo;
  /** The devices each user has signed in on (登录设备's new-device notice). */
  devices: DeviceRepo;
  /** Authenticator-app seeds, recovery codes and sign-in tickets waiting for their second step. */
  twoStep: TwoStepRepo;
  /** Identities a provider or the directory vouches for (`user_identities`), and a first sign-in's account. */
  identities: IdentityRepo;
  qrLogins: QrLoginRepo;
  /** Single sign-on's providers and round trips. */
  sso: SsoRepo;
  codes: CodeRepo;
  friends: FriendRepo;
  groups: GroupRepo;
  messages: MessageRepo;
  messageStore: MessageStoreRepo;
  reactions: ReactionRepo;
  polls: PollRepo;
  receipts: ReceiptRepo;
  typing: TypingRepo;
  edits: EditRepo;
  forwardRecords: ForwardRecordRepo;
  history: HistoryRepo;
  conversations: ConversationRepo;
  search: SearchRepo;
  pins: PinRepo;
  chains: ChainRepo;
  moments: MomentRepo;
  momentReactions: MomentReactionRepo;
  files: FileRepo;
  emoji: EmojiRepo;
  favorites: FavoriteRepo;
  reports: ReportRepo;
  blocks: BlockRepo;
  announcements: AnnouncementRepo;
  invites: InviteRepo;
  config: ConfigRepo;
  ops: OpsRepo;
  admin: AdminRepo;
  push: PushRepo;
  accounts: AccountRepo;
  exports: ExportRepo;
  keywords: KeywordRepo;
  retention: RetentionRepo;
}

export function createRepos(db: Db, dialect: Dialect): Repos {
  const factors = new FactorRepo(db);
  return {
    users: new UserRepo(db),
    departments: new DepartmentRepo(db),
    sessions: new SessionRepo(db, dialect),
    factors,
    passkeys: new PasskeyRepo(db),
    accessTokens: new AccessTokenRepo(db),
    robots: new RobotRepo(db),
    bots: new BotRepo(db),
    devices: new DeviceRepo(db),
    twoStep: new TwoStepRepo(db, factors),
    identities: new IdentityRepo(db),
    qrLogins: new QrLoginRepo(db),
    sso: new SsoRepo(db),
    codes: new CodeRepo(db),
    friends: new FriendRepo(db),
    groups: new GroupRepo(db),
    messages: new MessageRepo(db),
    messageStore: new MessageStoreRepo(db, dialect),
    reactions: new ReactionRepo(db),
    polls: new PollRepo(db),
    receipts: new ReceiptRepo(db),
    typing: new TypingRepo(db),
    edits: new EditRepo(db, dialect),
    forwardRecords: new ForwardRecordRepo(db),
    history: new HistoryRepo(db, dialect),
    conversations: new ConversationRepo(db),
    search: new SearchRepo(db, dialect),
    pins: new PinRepo(db),
    chains: new ChainRepo(db),
    moments: new MomentRepo(db),
    momentReactions: new MomentReactionRepo(db),
    files: new FileRepo(db),
    emoji: new EmojiRepo(db),
    favorites: new FavoriteRepo(db),
    reports: new ReportRepo(db),
    blocks: new BlockRepo(db),
    announcements: new AnnouncementRepo(db),
    invites: new InviteRepo(db),
    config: new ConfigRepo(db),
    ops: new OpsRepo(db),
    admin: new AdminRepo(db),
    push: new PushRepo(db),
    accounts: new AccountRepo(db),
    exports: new ExportRepo(db),
    keywords: new KeywordRepo(db),
    retention: new RetentionRepo(db),
  };
}
