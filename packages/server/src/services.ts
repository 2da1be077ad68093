import type { AppContext } from './context';
import type { CallStore } from './realtime/call-store';
import { AccountService } from './modules/account/service';
import { ExportService } from './modules/account/export';
import { AdminSecurity, AdminService } from './modules/admin';
import { KeywordAdmin, ReviewService } from './modules/keywords';
import { LdapService } from './modules/ldap';
import { BlockService } from './modules/block/service';
import { CallService } from './modules/call/service';
import { CodeService } from './modules/auth/codes';
import { SsoService } from './modules/sso';
import { AuthService } from './modules/auth/service';
import { TwoStepService } from './modules/auth/two-step';
import { PasskeyService } from './modules/auth/passkeys';
import { AccessTokenService } from './modules/auth/access-tokens';
import { RobotService } from './modules/robot';
import { BotDeliveries, BotService } from './modules/bot';
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
import { ChainService } from './modules/im/chains';
import { ReactionService } from './modules/im/reactions';
import { PollService } from './modules/im/polls';
import { ReceiptService } from './modules/im/receipts';
import { TypingService } from './modules/im/typing';
import { EditService } from './modules/im/edits';
import { MomentService } from './modules/moments/service';
import { PushService } from './modules/push';
import { QrLoginService } from './modules/qr/login';
import { QrService } from './modules/qr/service';
import { RetentionService } from './modules/retention';
import { reportNotice } from './modules/report/presenter';
import { DeviceService } from './modules/auth/devices';
import { systemMessage } from './modules/im/presenter';
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
  ctx.realtime.onWentOffline((userId) => users.wentOffline(userId));
  ctx.realtime.onCameOnline((userId) => users.cameOnline(userId));
  blocks.onBlocked((blocker, blocked) => users.blocked(blocker, blocked));
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
  const ldap = new LdapService(ctx, admin.audit);
  const twoStep = new TwoStepService(ctx, admin.audit);
  const receipts = new ReceiptService(ctx);
  const messages = new MessageService(ctx, hydrator, files, receipts);
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
  const devices = new DeviceService(ctx, {
    notify: async (user, line, exceptClientId) => {
      const data = systemMessage(user, `device-${line.session_id}`, line, ctx.now());
      await ctx.realtime.publish([user.id], { type: 'simple', data }, exceptClientId);
    },
    audit: (actor, action, target, detail) => admin.audit.append(actor, action, target, detail),
  });
  const auth = new AuthService(
    ctx,
    new CodeService(ctx.repos.codes, ctx.config, ctx.mailer, ctx.now),
    qr,
    twoStep,
    ldap,
  );
  auth.onSignedIn((user, sessionId, client, via) => devices.signedIn(user, sessionId, client, via));
  const accessTokens = new AccessTokenService(ctx, admin.audit);
  const botDeliveries = new BotDeliveries(ctx);
  const bots = new BotService(ctx, botDeliveries, accounts);
  pipeline.onPublished((row, chat, sender) => bots.published(row, chat, sender));
  accounts.onErasing((userId) => bots.ownerErased(userId));
  return {
    auth,
    devices,
    adminSecurity: new AdminSecurity(ctx.repos, admin.users, devices, admin.audit, accessTokens),
    twoStep,
    passkeys: new PasskeyService(ctx, admin.audit),
    accessTokens,
    ldap,
    users,
    friends,
    pipeline,
    forwards: new ForwardService(ctx, pipeline),
    messages,
    pins: new PinService(ctx, hydrator, pipeline),
    chains: new ChainService(ctx, hydrator, pipeline),
    pats: new PatService(ctx, hydrator, pipeline),
    reactions: new ReactionService(ctx),
    polls: new PollService(ctx, pipeline, hydrator),
    receipts,
    typing: new TypingService(ctx),
    edits: new EditService(ctx, hydrator),
    contacts,
    search: new MessageSearch(ctx, hydrator, contacts, new SearchIndexer(ctx)),
    groups,
    groupAdmin,
    groupCodes,
    robots: new RobotService(ctx, pipeline, files, uploads),
    bots,
    botDeliveries,
    qr,
    qrLogin: new QrLoginService(ctx, qr, devices),
    sso: new SsoService(ctx, admin.audit, uploads),
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
