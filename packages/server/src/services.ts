import type { AppContext } from './context';
import type { CallStore } from './realtime/call-store';
import { AccountService } from './modules/account/service';
import { ExportService } from './modules/account/export';
import { AdminService } from './modules/admin';
import { KeywordAdmin, ReviewService } from './modules/keywords';
import { BlockService } from './modules/block/service';
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
import { QrLoginService } from './modules/qr/login';
import { QrService } from './modules/qr/service';
import { RetentionService } from './modules/retention';
import { reportNotice } from './modules/report/presenter';
import { ReportQueue } from './modules/report/queue';
import { ReportService } from './modules/report/service';
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
  const blocks = new BlockService(ctx);
  blocks.onBlocked((a, b) => calls.endBetween(a, b));
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
  const retention = new RetentionService(ctx, files);
  groupAdmin.onHistoryCleared(async (fileIds) => void (await files.releaseAll(fileIds)));
  groupAdmin.onRetentionChanged(() => retention.kick());
  const groupCodes = new GroupCodeService(ctx, groups, qr);
  const accounts = new AccountService(ctx, {
    depart: (user, groupId) => groupAdmin.depart(user, groupId),
    release: (fileId) => files.release(fileId),
  });
  const admin = new AdminService(ctx.repos, ctx.config, ctx.now, {
    realtime: ctx.realtime,
    groups: groupAdmin,
    uptimeS: () => process.uptime(),
    announceProfile: (user) => friends.announceProfile(user),
  });
  const messages = new MessageService(ctx, hydrator, files);
  const reports = new ReportService(ctx, hydrator);
  const reportQueue = new ReportQueue(ctx, admin, {
    takeDownMessage: (msgId) => messages.takeDown(msgId),
    takeDownPost: (postId) => moments.takeDown(postId),
    notify: async (userId, line) => {
      const user = await ctx.repos.users.byId(userId);
      if (user) await ctx.realtime.publish([userId], { type: 'simple', data: reportNotice(user, line, ctx.now()) });
    },
  });
  const keywordAdmin = new KeywordAdmin(ctx.repos.keywords, ctx.keywords, admin.audit, ctx.now);
  const review = new ReviewService(
    ctx,
    {
      deliverMessage: (row) => pipeline.deliverHeld(row),
      releasePost: (postId, visibility) => moments.releasePost(postId, visibility),
      releaseComment: (userId, held) => moments.releaseComment(userId, held),
      removePost: (postId) => moments.takeDown(postId),
    },
    admin.audit,
  );
  return {
    auth: new AuthService(ctx, new CodeService(ctx.repos.codes, ctx.config, ctx.mailer, ctx.now), qr),
    users,
    friends,
    pipeline,
    forwards: new ForwardService(ctx, pipeline),
    messages,
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
    qrLogin: new QrLoginService(ctx, qr),
    files,
    uploads,
    emoji: new EmojiService(ctx, files),
    favorites: new FavoriteService(ctx, pipeline, files),
    blocks,
    calls,
    moments,
    admin,
    reports,
    reportQueue,
    keywordAdmin,
    review,
    push,
    accounts,
    exports: new ExportService(ctx),
    retention,
  };
}

export type Services = ReturnType<typeof createServices>;
