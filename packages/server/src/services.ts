import type { AppContext } from './context';
import type { CallStore } from './realtime/call-store';
import { AdminService } from './modules/admin';
import { CallService } from './modules/call/service';
import { CodeService } from './modules/auth/codes';
import { AuthService } from './modules/auth/service';
import { EmojiService } from './modules/emoji/service';
import { FavoriteService } from './modules/favorite/service';
import { FriendService } from './modules/friend/service';
import { GroupCodeService } from './modules/group/codes';
import { GroupAdminService } from './modules/group/manage';
import { GroupService } from './modules/group/service';
import { ContactService } from './modules/im/contacts';
import { ForwardService } from './modules/im/forward';
import { Hydrator } from './modules/im/hydrate';
import { MessageSearch } from './modules/im/search';
import { SearchIndexer } from './modules/im/search-index';
import { SendPipeline } from './modules/im/send/pipeline';
import { MessageService } from './modules/im/service';
import { PatService } from './modules/im/pat';
import { PinService } from './modules/im/pins';
import { ReactionService } from './modules/im/reactions';
import { EditService } from './modules/im/edits';
import { MomentService } from './modules/moments/service';
import { PushService } from './modules/push';
import { QrService } from './modules/qr/service';
import { FileService } from './modules/upload/files';
import { UploadService } from './modules/upload/service';
import { UserService } from './modules/user/service';

/** Every service, built once per process from the context and from each other. */
export function createServices(ctx: AppContext, callStore: CallStore) {
  const hydrator = new Hydrator(ctx.repos);
  const pipeline = new SendPipeline(ctx, hydrator);
  const push = new PushService(ctx, ctx.repos.push);
  pipeline.onPublished((row, chat, sender, recipients) => push.notify(row, chat, sender, recipients));
  const files = new FileService(ctx);
  const uploads = new UploadService(ctx);
  const qr = new QrService(ctx);
  const friends = new FriendService(ctx, qr, pipeline);
  const groups = new GroupService(ctx, pipeline, friends, qr);
  const calls = new CallService(ctx, pipeline, hydrator, callStore);
  friends.onUnfriended((a, b) => calls.endBetween(a, b));
  const moments = new MomentService(ctx, files);
  friends.onBefriended((a, b) => moments.befriended(a, b));
  friends.onUnfriended((a, b) => moments.unfriended(a, b));
  const contacts = new ContactService(ctx, friends);
  const users = new UserService(ctx, qr);
  users.onChanged(async (user) => {
    await friends.announceProfile(user);
    await groups.announceMember(user);
    await groups.redrawFaces(user.id);
  });
  const groupAdmin = new GroupAdminService(ctx, groups, pipeline, uploads);
  const groupCodes = new GroupCodeService(ctx, groups, qr);
  const admin = new AdminService(ctx.repos, ctx.config, ctx.now, {
    realtime: ctx.realtime,
    groups: groupAdmin,
    uptimeS: () => process.uptime(),
    announceProfile: (user) => friends.announceProfile(user),
  });
  return {
    auth: new AuthService(ctx, new CodeService(ctx.repos.codes, ctx.config, ctx.mailer, ctx.now), qr),
    users,
    friends,
    pipeline,
    forwards: new ForwardService(ctx, pipeline),
    messages: new MessageService(ctx, hydrator, files),
    pins: new PinService(ctx, hydrator, pipeline),
    pats: new PatService(ctx, hydrator, pipeline),
    reactions: new ReactionService(ctx),
    edits: new EditService(ctx, hydrator),
    contacts,
    search: new MessageSearch(ctx, hydrator, contacts, new SearchIndexer(ctx)),
    groups,
    groupAdmin,
    groupCodes,
    qr,
    files,
    uploads,
    emoji: new EmojiService(ctx, files),
    favorites: new FavoriteService(ctx, pipeline, files),
    calls,
    moments,
    admin,
    push,
  };
}

export type Services = ReturnType<typeof createServices>;
