import type * as z from 'zod';
import { blanksAbsent } from './api/fields';
import {
  ANNOUNCEMENT_MAX,
  BODY_BYTES_PER_UNIT_MAX,
  BODY_LIMIT_DEFAULT,
  CALL_SDP_MAX,
  JSON_FIELD_MAX,
  KEYWORD_IMPORT_TEXT_MAX,
  KEYWORD_TEST_TEXT_MAX,
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POLL_QUESTION_MAX,
  READ_NAMED_MAX,
  REPORT_TEXT_MAX,
  TEXT_MESSAGE_MAX,
} from './limits';
import { UNITS_PER_GRAPHEME_MAX } from './text';
import {
  BindGroupBody,
  BindUidBody,
  CheckVersionBody,
  EmptyBody,
  LoginBody,
  LogoutBody,
  OfflineBody,
  RegisterBody,
  SendCodeBody,
} from './api/common';
import {
  EditAccountBody,
  EditPasswordBody,
  GetUserInfoBody,
  SearchUserBody,
  UpdateUserInfoBody,
  SetStatusBody,
  ScanBody,
  UserQrBody,
  UserSettingBody,
} from './api/user';
import type { ScannedUser, UserPreview } from './qr';
import {
  QrLoginCodeBody,
  QrLoginStateBody,
  WebSessionEndBody,
  type QrLoginCode,
  type QrLoginScan,
  type QrLoginState,
  type WebSession,
} from './api/qr-login';
import {
  ManageSessionEndBody,
  ManageTokenRevokeBody,
  ManageUserSecurityBody,
  SessionEndBody,
  type DeviceSession,
  type ManagedUserSecurity,
} from './api/sessions';
import {
  TokenCreateBody,
  TokenRevokeBody,
  type AccessToken,
  type AccessTokenCreated,
  type TokenScope,
} from './api/tokens';
import {
  LoginTwoStepBody,
  TotpCodeBody,
  TotpDisableBody,
  type RecoveryCodes,
  type TotpSetup,
  type TwoStepPending,
  type TwoStepStatus,
} from './api/two-step';
import {
  FriendAddBody,
  FriendDelBody,
  FriendIndexBody,
  FriendSetNicknameBody,
  FriendUpdateBody,
  GetContactsBody,
} from './api/friend';
import {
  EmojiAddBody,
  EmojiIdsBody,
  EmojiIndexBody,
  FileListBody,
  UploadEmojiFields,
  UploadFileFields,
} from './api/files';
import {
  ChangeOwnerBody,
  EditGroupNameBody,
  GroupIdBody,
  GroupQrBody,
  GroupSettingBody,
  JoinGroupBody,
  RemoveUserBody,
  SetManagerBody,
  SetNoSpeakBody,
  SetNoticeBody,
  UpdateCardBody,
  UploadGroupAvatarFields,
  AddGroupUserBody,
  GetAllGroupBody,
  GetAllUserBody,
  GroupAddBody,
  GroupInfoBody,
  GroupUserListBody,
} from './api/group';
import {
  DelChatBody,
  ForwardMessageBody,
  GetAdminNoticeBody,
  GetContactInfoBody,
  GetMessageListBody,
  IsNoticeBody,
  MessageRefBody,
  ReadAtMsgBody,
  SearchMessageBody,
  SendMessageBody,
  SendToMsgBody,
  SetChatTopBody,
  SetMsgIsReadBody,
  SyncBody,
} from './api/im';
import type { IceConfig, SearchHit } from './api/im';
import { BotCreateBody, BotEditBody, BotIdBody, type Bot, type BotCreated, type BotDelivery } from './api/bots';
import {
  GroupRobotAddBody,
  GroupRobotEditBody,
  GroupRobotIdBody,
  GroupRobotListBody,
  UploadRobotAvatarFields,
  type GroupRobot,
} from './api/robots';
import { ForwardMessagesBody, ForwardRecordBody, type ForwardRecord } from './api/forward';
import {
  EditMessageBody,
  MessageEditsBody,
  MessageReactionsBody,
  ReactMessageBody,
  type MessageEdit,
  type MessageReactions,
  type Reactor,
} from './api/reactions';
import { GroupReadCountsBody, GroupReadListBody, type ReadCount, type ReadList } from './api/receipts';
import {
  ClosePollBody,
  CreatePollBody,
  PollVotersBody,
  VotePollBody,
  type PollState,
  type PollVoter,
} from './api/polls';
import { PatUserBody, PinListBody, PinMessageBody, type PinnedMessage } from './api/pins';
import {
  ChainCloseBody,
  ChainInfoBody,
  ChainJoinBody,
  ChainStartBody,
  ChainWithdrawBody,
  type ChainState,
} from './api/chains';
import {
  MOMENT_COMMENT_MAX,
  MOMENT_TEXT_MAX,
  MomentCommentBody,
  MomentCoverBody,
  MomentIdBody,
  MomentListBody,
  MomentNoticesBody,
  MomentPublishBody,
  MomentSettingBody,
  type MomentComment,
  type MomentNotice,
  type MomentPost,
  type MomentSettings,
  type MomentUnread,
} from './api/moments';
import { FavoriteAddBody, FavoriteDelBody, FavoriteListBody, FavoriteSendBody, type Favorite } from './api/favorite';
import { AccountDeleteBody, ExportRequestBody, ExportStatusBody, type DataExport } from './api/account';
import {
  ManageReportActBody,
  ManageReportGetBody,
  ManageReportListBody,
  ReportBody,
  ReportMineBody,
  type ManagedReport,
  type MyReport,
  type ManagedReportDetail,
  type ReportReceipt,
} from './api/report';
import { BlockAddBody, BlockDelBody, BlockListBody, type BlockedUser } from './api/block';
import {
  PasskeyLoginBody,
  PasskeyLoginOptionsBody,
  PasskeyRegisterBody,
  PasskeyRegisterOptionsBody,
  PasskeyRemoveBody,
  PasskeyRenameBody,
  type Passkey,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
} from './api/passkeys';
import {
  ManageSsoDelBody,
  ManageSsoSaveBody,
  SsoExchangeBody,
  type ManagedSsoProvider,
  type SsoButton,
} from './api/sso';
import {
  PushKeyBody,
  PushSettingBody,
  PushSubscribeBody,
  PushUnsubscribeBody,
  type PushKey,
  type PushSettings,
} from './api/push';
import {
  ManageAuditListBody,
  ManageConfigSetBody,
  ManageDepartmentCreateBody,
  ManageDepartmentDelBody,
  ManageDepartmentRenameBody,
  ManageEmptyBody,
  ManageGroupBody,
  ManageGroupMembersBody,
  ManageGroupOwnerBody,
  ManageInviteCreateBody,
  ManageInviteRevokeBody,
  ManageListBody,
  ManageNoticeDelBody,
  ManageNoticePublishBody,
  ManagePageBody,
  ManageUserCreateBody,
  ManageUserDepartmentBody,
  ManageUserIdBody,
  ManageUserPasswordBody,
  ManageUserRoleBody,
  ManageUserStatusBody,
  type AuditRow,
  type Department,
  type ManagedConfig,
  type ManagedGroup,
  type ManagedInvite,
  type ManagedMember,
  type ManagedNotice,
  type ManagedUser,
  type ManageStats,
} from './api/manage';
import { LDAP_CA_MAX, ManageLdapSetBody, type ManagedLdap } from './api/directory';
import {
  ManageHeldDecideBody,
  ManageHeldListBody,
  ManageKeywordAddBody,
  ManageKeywordListCreateBody,
  ManageKeywordListDelBody,
  ManageKeywordListUpdateBody,
  ManageKeywordRemoveBody,
  ManageKeywordTestBody,
  ManageKeywordWordsBody,
  type HeldItem,
  type KeywordAddResult,
  type KeywordList,
  type KeywordTestResult,
  type KeywordWord,
} from './api/keywords';
import type {
  AdminNotice,
  Contact,
  EmojiItem,
  FileItem,
  UploadResult,
  GroupInfo,
  GroupMember,
  GroupPreview,
  ScannedGroup,
  Message,
  FriendRequest,
  GlobalConfig,
  LoginResult,
  UserInfo,
  UserProfile,
  VersionInfo,
} from './entities';

/** One endpoint: its path, its body schema, and whether it needs a session. */
export interface RouteDef<B extends z.ZodType = z.ZodType> {
  path: string;
  body: B;
  /** True when no session is needed. */
  public: boolean;
  /** True for multipart/form-data uploads (the body schema covers the non-file fields). */
  multipart?: boolean;
  /** True for the administration calls (docs/protocol.md §8): a session of a user whose role is admin. */
  admin?: boolean;
  /**
   * The largest body the route takes, bytes (a multipart route's fields; its file is bounded by
   * `fileUpload`): BODY_LIMIT_DEFAULT, or what the longest text its schema accepts needs.
   */
  bodyLimit: number;
}

const route = <B extends z.ZodType>(path: string, body: B, isPublic = false): RouteDef<B> => ({
  path,
  body: blanksAbsent(body),
  public: isPublic,
  bodyLimit: BODY_LIMIT_DEFAULT,
});
const manage = <B extends z.ZodType>(path: string, body: B): RouteDef<B> => ({
  ...route(path, body),
  admin: true,
});
const upload = <B extends z.ZodType>(path: string, body: B): RouteDef<B> => ({
  path,
  body,
  public: false,
  multipart: true,
  bodyLimit: BODY_LIMIT_DEFAULT,
});
/**
 * A route whose body carries up to `units` UTF-16 units of text (its schema's longest) besides
 * the usual fields, each unit as many bytes as a client may spend on it.
 */
const carrying = <D extends RouteDef>(units: number, def: D): D => ({
  ...def,
  bodyLimit: BODY_LIMIT_DEFAULT + units * BODY_BYTES_PER_UNIT_MAX,
});

/**
 * The header by which Sparrow's own client names itself on every call (its value: `web`). A call
 * without it is answered as a Raingad 6.x client reads it: a message kind of Sparrow's own, such as a
 * merged record, comes as a text of its content.
 */
export const CLIENT_HEADER = 'X-Sparrow-Client';

/**
 * The route table: every HTTP endpoint, by name. No path string is spelled anywhere else; the
 * server registers these and the web client's typed `api` is built from them.
 */
export const routes = {
  login: route('/common/Pub/login', LoginBody, true),
  register: route('/common/Pub/register', RegisterBody, true),
  checkuser: route('/common/Pub/checkuser', EmptyBody),
  logout: route('/common/Pub/logout', LogoutBody),
  sendCode: route('/common/Pub/sendCode', SendCodeBody, true),
  bindUid: route('/common/Pub/bindUid', BindUidBody),
  bindGroup: route('/common/Pub/bindGroup', BindGroupBody),
  getSystemInfo: route('/common/Pub/getSystemInfo', EmptyBody, true),
  checkVersion: route('/common/pub/checkVersion', CheckVersionBody, true),
  offline: route('/common/pub/offline', OfflineBody),
  qrLoginCreate: route('/common/Pub/qrLogin', EmptyBody, true),
  qrLoginState: route('/common/Pub/qrLoginState', QrLoginStateBody, true),
  ssoProviders: route('/common/Pub/ssoProviders', EmptyBody, true),
  ssoExchange: route('/common/Pub/ssoExchange', SsoExchangeBody, true),
  qrLoginScan: route('/enterprise/im/qrLoginScan', QrLoginCodeBody),
  qrLoginConfirm: route('/enterprise/im/qrLoginConfirm', QrLoginCodeBody),
  qrLoginCancel: route('/enterprise/im/qrLoginCancel', QrLoginCodeBody),
  webSessions: route('/enterprise/im/webSessions', EmptyBody),
  webSessionEnd: route('/enterprise/im/webSessionEnd', WebSessionEndBody),
  sessions: route('/enterprise/im/sessions', EmptyBody),
  sessionEnd: route('/enterprise/im/sessionEnd', SessionEndBody),
  sessionEndOthers: route('/enterprise/im/sessionEndOthers', EmptyBody),
  passkeyLoginOptions: route('/common/Pub/passkeyLoginOptions', PasskeyLoginOptionsBody, true),
  passkeyLogin: route('/common/Pub/passkeyLogin', PasskeyLoginBody, true),
  passkeyRegisterOptions: route('/enterprise/passkey/registerOptions', PasskeyRegisterOptionsBody),
  passkeyRegister: route('/enterprise/passkey/register', PasskeyRegisterBody),
  passkeyList: route('/enterprise/passkey/list', EmptyBody),
  passkeyRename: route('/enterprise/passkey/rename', PasskeyRenameBody),
  passkeyRemove: route('/enterprise/passkey/remove', PasskeyRemoveBody),
  loginTwoStep: route('/common/Pub/loginTwoStep', LoginTwoStepBody, true),
  twoStepStatus: route('/enterprise/im/twoStepStatus', EmptyBody),
  totpBegin: route('/enterprise/im/totpBegin', EmptyBody),
  totpConfirm: route('/enterprise/im/totpConfirm', TotpCodeBody),
  totpDisable: route('/enterprise/im/totpDisable', TotpDisableBody),
  recoveryCodesNew: route('/enterprise/im/recoveryCodesNew', TotpCodeBody),
  tokenCreate: route('/enterprise/token/create', TokenCreateBody),
  tokenList: route('/enterprise/token/list', EmptyBody),
  tokenRevoke: route('/enterprise/token/revoke', TokenRevokeBody),
  /** The caller's bot accounts (docs/protocol.md §11). */
  botCreate: route('/enterprise/bot/create', BotCreateBody),
  botList: route('/enterprise/bot/list', EmptyBody),
  botEdit: route('/enterprise/bot/edit', BotEditBody),
  botReset: route('/enterprise/bot/reset', BotIdBody),
  botDelete: route('/enterprise/bot/delete', BotIdBody),
  botDeliveries: route('/enterprise/bot/deliveries', BotIdBody),

  getUserInfo: route('/enterprise/im/getUserInfo', GetUserInfoBody),
  userInfoqq: route('/enterprise/im/userInfoqq', UserQrBody),
  scanUser: route('/scan/u/:token', ScanBody),
  scanGroup: route('/scan/g/:token', ScanBody),
  searchUser: route('/enterprise/im/searchUser', SearchUserBody),
  updateUserInfo: route('/enterprise/im/updateUserInfo', UpdateUserInfoBody),
  setStatus: route('/enterprise/im/setStatus', SetStatusBody),
  editPassword: route('/enterprise/im/editPassword', EditPasswordBody),
  editAccount: route('/enterprise/im/editAccount', EditAccountBody),
  userSetting: route('/enterprise/im/setting', UserSettingBody),

  getContacts: route('/enterprise/im/getContacts', GetContactsBody),
  getContactInfo: route('/enterprise/im/getContactInfo', GetContactInfoBody),
  getDepartments: route('/enterprise/im/getDepartments', GetContactsBody),
  getMessageList: route('/enterprise/im/getMessageList', GetMessageListBody),
  searchMessage: route('/enterprise/im/searchMessage', SearchMessageBody),
  sync: route('/enterprise/im/sync', SyncBody),
  sendMessage: carrying(
    TEXT_MESSAGE_MAX * UNITS_PER_GRAPHEME_MAX,
    route('/enterprise/im/sendMessage', SendMessageBody),
  ),
  forwardMessage: route('/enterprise/im/forwardMessage', ForwardMessageBody),
  forwardMessages: carrying(
    TEXT_MESSAGE_MAX * UNITS_PER_GRAPHEME_MAX,
    route('/enterprise/im/forwardMessages', ForwardMessagesBody),
  ),
  forwardRecord: route('/enterprise/im/forwardRecord', ForwardRecordBody),
  setMsgIsRead: carrying(READ_NAMED_MAX * 64, route('/enterprise/im/setMsgIsRead', SetMsgIsReadBody)),
  readAtMsg: route('/enterprise/im/readAtMsg', ReadAtMsgBody),
  undoMessage: route('/enterprise/im/undoMessage', MessageRefBody),
  delMessage: route('/enterprise/im/delMessage', MessageRefBody),
  removeMessage: route('/enterprise/im/removeMessage', MessageRefBody),
  delChat: route('/enterprise/im/delChat', DelChatBody),
  setChatTop: route('/enterprise/im/setChatTop', SetChatTopBody),
  isNotice: route('/enterprise/im/isNotice', IsNoticeBody),
  getAdminNotice: route('/enterprise/im/getAdminNotice', GetAdminNoticeBody),
  sendToMsg: carrying(CALL_SDP_MAX, route('/enterprise/im/sendToMsg', SendToMsgBody)),
  iceServers: route('/enterprise/im/iceServers', EmptyBody),
  reactMessage: route('/enterprise/im/reactMessage', ReactMessageBody),
  messageReactions: route('/enterprise/im/messageReactions', MessageReactionsBody),
  createPoll: carrying(
    (POLL_QUESTION_MAX + POLL_OPTIONS_MAX * POLL_OPTION_MAX) * UNITS_PER_GRAPHEME_MAX,
    route('/enterprise/im/createPoll', CreatePollBody),
  ),
  votePoll: route('/enterprise/im/votePoll', VotePollBody),
  closePoll: route('/enterprise/im/closePoll', ClosePollBody),
  pollVoters: route('/enterprise/im/pollVoters', PollVotersBody),
  groupReadCounts: route('/enterprise/im/groupReadCounts', GroupReadCountsBody),
  groupReadList: route('/enterprise/im/groupReadList', GroupReadListBody),
  editMessage: carrying(
    TEXT_MESSAGE_MAX * UNITS_PER_GRAPHEME_MAX,
    route('/enterprise/im/editMessage', EditMessageBody),
  ),
  messageEdits: route('/enterprise/im/messageEdits', MessageEditsBody),
  pinMessage: route('/enterprise/im/pinMessage', PinMessageBody),
  pinList: route('/enterprise/im/pinList', PinListBody),
  patUser: route('/enterprise/im/patUser', PatUserBody),
  chainStart: route('/enterprise/im/chainStart', ChainStartBody),
  chainJoin: route('/enterprise/im/chainJoin', ChainJoinBody),
  chainWithdraw: route('/enterprise/im/chainWithdraw', ChainWithdrawBody),
  chainClose: route('/enterprise/im/chainClose', ChainCloseBody),
  chainInfo: route('/enterprise/im/chainInfo', ChainInfoBody),

  groupAdd: route('/enterprise/group/add', GroupAddBody),
  groupInfo: route('/enterprise/group/groupInfo', GroupInfoBody),
  groupUserList: route('/enterprise/group/groupUserList', GroupUserListBody),
  getAllUser: route('/enterprise/group/getAllUser', GetAllUserBody),
  getAllGroup: route('/enterprise/group/getallgroup', GetAllGroupBody),
  addGroupUser: route('/enterprise/group/addGroupUser', AddGroupUserBody),
  removeUser: route('/enterprise/group/removeUser', RemoveUserBody),
  setManager: route('/enterprise/group/setManager', SetManagerBody),
  changeOwner: route('/enterprise/group/changeOwner', ChangeOwnerBody),
  setNoSpeak: route('/enterprise/group/setNoSpeak', SetNoSpeakBody),
  groupSetting: route('/enterprise/group/groupSetting', GroupSettingBody),
  editGroupName: route('/enterprise/group/editGroupName', EditGroupNameBody),
  setNotice: carrying(ANNOUNCEMENT_MAX * 4, route('/enterprise/group/setNotice', SetNoticeBody)),
  removeGroup: route('/enterprise/group/removeGroup', GroupIdBody),
  clearMessage: route('/enterprise/group/clearMessage', GroupIdBody),
  groupInfoqq: route('/enterprise/group/groupInfoqq', GroupQrBody),
  joinGroup: route('/enterprise/group/joinGroup', JoinGroupBody),
  /** Owner or administrator: revokes every code of the group handed out so far (our addition). */
  resetGroupQr: route('/enterprise/group/resetQrcode', GroupInfoBody),
  /** A group's robots (群机器人, docs/protocol.md §10): any member lists them; the owner and administrators manage them. */
  groupRobotList: route('/enterprise/group/robotList', GroupRobotListBody),
  groupRobotAdd: route('/enterprise/group/robotAdd', GroupRobotAddBody),
  groupRobotEdit: route('/enterprise/group/robotEdit', GroupRobotEditBody),
  groupRobotReset: route('/enterprise/group/robotReset', GroupRobotIdBody),
  groupRobotRemove: route('/enterprise/group/robotRemove', GroupRobotIdBody),
  uploadRobotAvatar: upload('/common/upload/uploadRobotAvatar', UploadRobotAvatarFields),
  updateCard: route('/enterprise/im/updateCard', UpdateCardBody),
  uploadGroupAvatar: upload('/common/upload/uploadGroupAvatar', UploadGroupAvatarFields),
  uploadFile: carrying(JSON_FIELD_MAX, upload('/common/upload/uploadFile', UploadFileFields)),
  uploadEmoji: upload('/common/upload/uploadEmoji', UploadEmojiFields),
  emojiIndex: route('/enterprise/emoji/index', EmojiIndexBody),
  emojiAdd: route('/enterprise/emoji/add', EmojiAddBody),
  emojiDel: route('/enterprise/emoji/del', EmojiIdsBody),
  emojiMove: route('/enterprise/emoji/move', EmojiIdsBody),
  fileList: route('/enterprise/im/fileList', FileListBody),

  friendAdd: route('/enterprise/friend/add', FriendAddBody),
  friendIndex: route('/enterprise/friend/index', FriendIndexBody),
  friendUpdate: route('/enterprise/friend/update', FriendUpdateBody),
  friendDel: route('/enterprise/friend/del', FriendDelBody),
  friendSetNickname: route('/enterprise/friend/setNickname', FriendSetNicknameBody),

  uploadAvatar: upload('/common/upload/uploadAvatar', EmptyBody),

  momentsList: route('/enterprise/moments/list', MomentListBody),
  momentsPublish: carrying(
    MOMENT_TEXT_MAX * UNITS_PER_GRAPHEME_MAX,
    route('/enterprise/moments/publish', MomentPublishBody),
  ),
  momentsDel: route('/enterprise/moments/del', MomentIdBody),
  momentsLike: route('/enterprise/moments/like', MomentIdBody),
  momentsUnlike: route('/enterprise/moments/unlike', MomentIdBody),
  momentsComment: carrying(
    MOMENT_COMMENT_MAX * UNITS_PER_GRAPHEME_MAX,
    route('/enterprise/moments/comment', MomentCommentBody),
  ),
  momentsDelComment: route('/enterprise/moments/delComment', MomentIdBody),
  momentsNotices: route('/enterprise/moments/notices', MomentNoticesBody),
  momentsUnread: route('/enterprise/moments/unread', EmptyBody),
  momentsReadNotices: route('/enterprise/moments/readNotices', EmptyBody),
  momentsSetCover: route('/enterprise/moments/setCover', MomentCoverBody),
  momentsSetting: route('/enterprise/moments/setting', MomentSettingBody),
  favoriteAdd: route('/enterprise/favorite/add', FavoriteAddBody),
  favoriteList: route('/enterprise/favorite/list', FavoriteListBody),
  favoriteDel: route('/enterprise/favorite/del', FavoriteDelBody),
  favoriteSend: route('/enterprise/favorite/send', FavoriteSendBody),
  accountDelete: route('/enterprise/account/delete', AccountDeleteBody),
  exportRequest: route('/enterprise/account/exportRequest', ExportRequestBody),
  exportStatus: route('/enterprise/account/exportStatus', ExportStatusBody),
  report: carrying(REPORT_TEXT_MAX * UNITS_PER_GRAPHEME_MAX, route('/enterprise/report/add', ReportBody)),
  reportMine: route('/enterprise/report/mine', ReportMineBody),
  blockAdd: route('/enterprise/block/add', BlockAddBody),
  blockDel: route('/enterprise/block/del', BlockDelBody),
  blockList: route('/enterprise/block/list', BlockListBody),
  pushKey: route('/enterprise/push/key', PushKeyBody),
  pushSubscribe: route('/enterprise/push/subscribe', PushSubscribeBody),
  pushUnsubscribe: route('/enterprise/push/unsubscribe', PushUnsubscribeBody),
  pushSetting: route('/enterprise/push/setting', PushSettingBody),
  manageStats: manage('/manage/stats', ManageEmptyBody),
  manageUserList: manage('/manage/userList', ManageListBody),
  manageUserCreate: manage('/manage/userCreate', ManageUserCreateBody),
  manageUserStatus: manage('/manage/userStatus', ManageUserStatusBody),
  manageUserPassword: manage('/manage/userPassword', ManageUserPasswordBody),
  manageUserRole: manage('/manage/userRole', ManageUserRoleBody),
  manageUserLogout: manage('/manage/userLogout', ManageUserIdBody),
  manageUserSecurity: manage('/manage/userSecurity', ManageUserSecurityBody),
  manageSessionEnd: manage('/manage/sessionEnd', ManageSessionEndBody),
  manageTokenRevoke: manage('/manage/tokenRevoke', ManageTokenRevokeBody),
  manageTwoStepReset: manage('/manage/twoStepReset', ManageUserSecurityBody),
  manageGroupList: manage('/manage/groupList', ManageListBody),
  manageGroupMembers: manage('/manage/groupMembers', ManageGroupMembersBody),
  manageGroupDisband: manage('/manage/groupDisband', ManageGroupBody),
  manageGroupOwner: manage('/manage/groupOwner', ManageGroupOwnerBody),
  manageConfigGet: manage('/manage/configGet', ManageEmptyBody),
  manageConfigSet: carrying(JSON_FIELD_MAX, manage('/manage/configSet', ManageConfigSetBody)),
  manageInviteList: manage('/manage/inviteList', ManagePageBody),
  manageInviteCreate: manage('/manage/inviteCreate', ManageInviteCreateBody),
  manageInviteRevoke: manage('/manage/inviteRevoke', ManageInviteRevokeBody),
  manageNoticeList: manage('/manage/noticeList', ManagePageBody),
  manageNoticePublish: carrying(ANNOUNCEMENT_MAX + 128, manage('/manage/noticePublish', ManageNoticePublishBody)),
  manageNoticeDel: manage('/manage/noticeDel', ManageNoticeDelBody),
  manageAuditList: manage('/manage/auditList', ManageAuditListBody),
  manageLdapGet: manage('/manage/ldapGet', ManageEmptyBody),
  manageLdapSet: carrying(LDAP_CA_MAX + 2_048, manage('/manage/ldapSet', ManageLdapSetBody)),
  manageDepartmentList: manage('/manage/departmentList', ManageEmptyBody),
  manageDepartmentCreate: manage('/manage/departmentCreate', ManageDepartmentCreateBody),
  manageDepartmentRename: manage('/manage/departmentRename', ManageDepartmentRenameBody),
  manageDepartmentDel: manage('/manage/departmentDel', ManageDepartmentDelBody),
  manageUserDepartment: manage('/manage/userDepartment', ManageUserDepartmentBody),
  manageKeywordLists: manage('/manage/keywordLists', ManageEmptyBody),
  manageKeywordListCreate: manage('/manage/keywordListCreate', ManageKeywordListCreateBody),
  manageKeywordListUpdate: manage('/manage/keywordListUpdate', ManageKeywordListUpdateBody),
  manageKeywordListDel: manage('/manage/keywordListDel', ManageKeywordListDelBody),
  manageKeywordWords: manage('/manage/keywordWords', ManageKeywordWordsBody),
  manageKeywordAdd: carrying(KEYWORD_IMPORT_TEXT_MAX, manage('/manage/keywordAdd', ManageKeywordAddBody)),
  manageKeywordRemove: manage('/manage/keywordRemove', ManageKeywordRemoveBody),
  manageKeywordTest: carrying(KEYWORD_TEST_TEXT_MAX, manage('/manage/keywordTest', ManageKeywordTestBody)),
  manageHeldList: manage('/manage/heldList', ManageHeldListBody),
  manageHeldDecide: manage('/manage/heldDecide', ManageHeldDecideBody),
  manageReportList: manage('/manage/reportList', ManageReportListBody),
  manageReportGet: manage('/manage/reportGet', ManageReportGetBody),
  manageReportAct: manage('/manage/reportAct', ManageReportActBody),
  manageSsoList: manage('/manage/ssoList', ManageEmptyBody),
  manageSsoSave: manage('/manage/ssoSave', ManageSsoSaveBody),
  manageSsoDel: manage('/manage/ssoDel', ManageSsoDelBody),
} as const;

export type RouteName = keyof typeof routes;

/**
 * The console's routes on a user's way in (passwords, second factors, sessions, tokens): no token
 * reaches them, `admin` or not, as no token reaches the caller's own (docs/protocol.md §9).
 */
const CONSOLE_ACCOUNT_SECURITY: ReadonlySet<string> = new Set([
  'manageUserPassword',
  'manageUserLogout',
  'manageUserSecurity',
  'manageSessionEnd',
  'manageTokenRevoke',
  'manageTwoStepReset',
]);

/**
 * The scope a personal access token needs for each route it may call (docs/protocol.md §9); a
 * route not named here answers a token TokenScope (signing in and out, sessions, second factors,
 * tokens themselves, the account, calls, joining a group by its code, uploads of one's own
 * picture). The console's routes need `admin`, but for those on a user's way in.
 */
export const ROUTE_SCOPES: Readonly<Partial<Record<RouteName, TokenScope>>> = {
  ...(Object.fromEntries(
    Object.entries(routes)
      .filter(([name, def]) => 'admin' in def && def.admin && !CONSOLE_ACCOUNT_SECURITY.has(name))
      .map(([name]) => [name, 'admin']),
  ) as Partial<Record<RouteName, TokenScope>>),
  checkuser: 'messages:read',
  getUserInfo: 'messages:read',
  searchUser: 'messages:read',
  getContacts: 'messages:read',
  getContactInfo: 'messages:read',
  getDepartments: 'messages:read',
  getMessageList: 'messages:read',
  searchMessage: 'messages:read',
  sync: 'messages:read',
  forwardRecord: 'messages:read',
  messageReactions: 'messages:read',
  pollVoters: 'messages:read',
  groupReadCounts: 'messages:read',
  groupReadList: 'messages:read',
  messageEdits: 'messages:read',
  pinList: 'messages:read',
  chainInfo: 'messages:read',
  fileList: 'messages:read',
  groupInfo: 'messages:read',
  groupUserList: 'messages:read',
  getAllUser: 'messages:read',
  getAllGroup: 'messages:read',
  friendIndex: 'messages:read',
  emojiIndex: 'messages:read',
  sendMessage: 'messages:send',
  forwardMessage: 'messages:send',
  forwardMessages: 'messages:send',
  setMsgIsRead: 'messages:send',
  readAtMsg: 'messages:send',
  undoMessage: 'messages:send',
  delMessage: 'messages:send',
  editMessage: 'messages:send',
  reactMessage: 'messages:send',
  createPoll: 'messages:send',
  votePoll: 'messages:send',
  closePoll: 'messages:send',
  pinMessage: 'messages:send',
  chainStart: 'messages:send',
  chainJoin: 'messages:send',
  chainWithdraw: 'messages:send',
  chainClose: 'messages:send',
  uploadFile: 'messages:send',
  groupAdd: 'groups:manage',
  addGroupUser: 'groups:manage',
  removeUser: 'groups:manage',
  setManager: 'groups:manage',
  changeOwner: 'groups:manage',
  setNoSpeak: 'groups:manage',
  groupSetting: 'groups:manage',
  editGroupName: 'groups:manage',
  setNotice: 'groups:manage',
  removeGroup: 'groups:manage',
  resetGroupQr: 'groups:manage',
  groupRobotList: 'groups:manage',
  groupRobotAdd: 'groups:manage',
  groupRobotEdit: 'groups:manage',
  groupRobotReset: 'groups:manage',
  groupRobotRemove: 'groups:manage',
  uploadRobotAvatar: 'groups:manage',
  updateCard: 'groups:manage',
  uploadGroupAvatar: 'groups:manage',
};

/** Aliases: other paths that serve the same endpoint. */
export const routeAliases: Partial<Record<RouteName, string[]>> = {
  bindGroup: ['/common/index/bindGroup'],
  fileList: ['/enterprise/files/index'],
};

/** What each endpoint answers in `data`. */
export interface RouteResponses {
  /** A session; or, for a user with a second factor and a client that sent `two_step: 1`, the ticket of the second step. */
  login: LoginResult | TwoStepPending;
  loginTwoStep: LoginResult;
  twoStepStatus: TwoStepStatus;
  /** A new secret, replacing any setup not confirmed yet. */
  totpBegin: TotpSetup;
  /** Two-step sign-in is on: the ten recovery codes, shown this once. */
  totpConfirm: RecoveryCodes;
  totpDisable: null;
  /** Ten new recovery codes; the old ones no longer work. */
  recoveryCodesNew: RecoveryCodes;
  qrLoginCreate: QrLoginCode;
  qrLoginState: QrLoginState;
  ssoProviders: SsoButton[];
  /** A session; or, for a user with a second factor, the ticket of the second step. */
  ssoExchange: LoginResult | TwoStepPending;
  qrLoginScan: QrLoginScan;
  qrLoginConfirm: null;
  qrLoginCancel: null;
  webSessions: WebSession[];
  webSessionEnd: null;
  /** The caller's live sessions, newest first, the caller's own marked `current`. */
  sessions: DeviceSession[];
  sessionEnd: null;
  /** How many sessions were ended. */
  sessionEndOthers: number;
  /** Any passkey of this server may answer (or, with a ticket, the ticket user's). */
  passkeyLoginOptions: PasskeyRequestOptions;
  passkeyLogin: LoginResult;
  passkeyRegisterOptions: PasskeyCreationOptions;
  /** The passkey as added. */
  passkeyRegister: Passkey;
  /** Oldest first. */
  passkeyList: Passkey[];
  passkeyRename: null;
  passkeyRemove: null;
  register: UserInfo;
  checkuser: UserInfo;
  logout: null;
  sendCode: null;
  bindUid: null;
  bindGroup: null;
  getSystemInfo: GlobalConfig;
  checkVersion: VersionInfo;
  offline: null;
  getUserInfo: UserProfile;
  userInfoqq: UserPreview;
  scanUser: ScannedUser;
  scanGroup: ScannedGroup;
  searchUser: UserProfile[];
  updateUserInfo: UserInfo;
  /** My record with the status as it now is. */
  setStatus: UserInfo;
  editPassword: null;
  editAccount: UserInfo;
  userSetting: null;
  uploadAvatar: string;
  /** `count`: pending friend requests to me. */
  getContacts: Contact[];
  friendAdd: null;
  friendIndex: FriendRequest[];
  friendUpdate: null;
  friendDel: null;
  friendSetNickname: null;
  getContactInfo: Contact;
  /** The organisation's departments (runMode 1; empty otherwise), by parent, `sort`, then id. */
  getDepartments: Department[];
  /** Oldest → newest; `count`: how many match in all. */
  getMessageList: Message[];
  /** Newest first; `count`: how many match in all. */
  searchMessage: SearchHit[];
  /** Ascending; `count`: how many remain after these. */
  sync: Message[];
  /** The new token with its secret, shown this once. */
  tokenCreate: AccessTokenCreated;
  /** The caller's tokens, newest first, without their secrets. */
  tokenList: AccessToken[];
  tokenRevoke: null;
  /** The new bot with its token, shown this once. */
  botCreate: BotCreated;
  /** The caller's bots, oldest first. */
  botList: Bot[];
  botEdit: Bot;
  /** The bot with a new token and a new webhook secret: the old ones stop working. */
  botReset: BotCreated;
  botDelete: null;
  /** The bot's newest deliveries, at most BOT_DELIVERIES_SHOWN. */
  botDeliveries: BotDelivery[];
  sendMessage: Message;
  forwardMessage: null;
  forwardMessages: null;
  /** The record's messages as the caller sees them, oldest first. */
  forwardRecord: ForwardRecord;
  setMsgIsRead: null;
  readAtMsg: null;
  undoMessage: null;
  delMessage: null;
  removeMessage: null;
  delChat: null;
  setChatTop: null;
  isNotice: null;
  /** The newest announcement, or `EMPTY_ADMIN_NOTICE`. */
  getAdminNotice: AdminNotice;
  /** The call's `webrtc` message as the sender sees it (`extends.code` 907 when the callee is busy). */
  sendToMsg: Message;
  iceServers: IceConfig;
  /** The message's reactions as the caller now sees them. */
  reactMessage: MessageReactions;
  /** Who reacted, oldest first, at most REACTORS_LISTED_MAX per emoji. */
  messageReactions: Reactor[];
  /** The poll's message as its starter sees it. */
  createPoll: Message;
  /** The poll as the voter now sees it. */
  votePoll: PollState;
  /** The poll as the caller now sees it, closed. */
  closePoll: PollState;
  /** Who chose each option (or the one asked), oldest vote first, at most POLL_VOTERS_LISTED_MAX per option. */
  pollVoters: PollVoter[];
  /** Each of the asked messages that is mine in the group, in the order asked; empty while receipts are off for me or the group. */
  groupReadCounts: ReadCount[];
  /** The message's 已读 and 未读. */
  groupReadList: ReadList;
  /** The edited message as the caller sees it. */
  editMessage: Message;
  /** Earlier versions of the text, oldest first. */
  messageEdits: MessageEdit[];
  pinMessage: null;
  /** The chat's pinned messages, newest pin first. */
  pinList: PinnedMessage[];
  /** The pat's event line as the patter sees it. */
  patUser: Message;
  /** The chain's message as its starter sees it. */
  chainStart: Message;
  /** The chain as it is now. */
  chainJoin: ChainState;
  chainWithdraw: ChainState;
  chainClose: ChainState;
  chainInfo: ChainState;
  groupAdd: Contact;
  groupInfo: GroupInfo;
  groupUserList: GroupMember[];
  getAllUser: Contact[];
  getAllGroup: Contact[];
  addGroupUser: null;
  removeUser: null;
  setManager: null;
  changeOwner: null;
  setNoSpeak: null;
  groupSetting: null;
  editGroupName: null;
  setNotice: null;
  removeGroup: null;
  clearMessage: null;
  groupInfoqq: GroupPreview;
  joinGroup: Contact;
  /** The group's fresh code. */
  resetGroupQr: Pick<GroupInfo, 'qrUrl' | 'qrExpire'>;
  /** The group's robots, oldest first; `url` only for the owner and administrators. */
  groupRobotList: GroupRobot[];
  /** The new robot, with its webhook. */
  groupRobotAdd: GroupRobot;
  groupRobotEdit: GroupRobot;
  /** The robot with its new webhook: the old one is dead. */
  groupRobotReset: GroupRobot;
  groupRobotRemove: null;
  /** The robot with its new avatar. */
  uploadRobotAvatar: GroupRobot;
  updateCard: null;
  uploadGroupAvatar: string;
  /** Without `message`: the stored file; with it: the sent Message. */
  uploadFile: UploadResult | Message;
  uploadEmoji: EmojiItem;
  emojiIndex: EmojiItem[];
  emojiAdd: EmojiItem;
  emojiDel: null;
  emojiMove: null;
  /** `count`: how many in all. */
  fileList: FileItem[];
  /** Newest first. */
  momentsList: MomentPost[];
  momentsPublish: MomentPost;
  momentsDel: null;
  /** The post's likes as the caller sees them. */
  momentsLike: MomentPost;
  momentsUnlike: MomentPost;
  momentsComment: MomentComment;
  momentsDelComment: null;
  momentsNotices: MomentNotice[];
  momentsUnread: MomentUnread;
  momentsReadNotices: null;
  momentsSetCover: MomentSettings;
  momentsSetting: MomentSettings;
  /** The favourites saved (or found already saved), in the order asked. */
  favoriteAdd: Favorite[];
  /** Newest first; `count`: how many match in all. */
  favoriteList: Favorite[];
  favoriteDel: null;
  favoriteSend: null;
  accountDelete: null;
  exportRequest: DataExport;
  exportStatus: DataExport | null;
  report: ReportReceipt;
  /** Newest first. */
  reportMine: MyReport[];
  blockAdd: null;
  blockDel: null;
  /** The latest first; `count`: how many in all. */
  blockList: BlockedUser[];
  pushKey: PushKey;
  pushSubscribe: null;
  pushUnsubscribe: null;
  pushSetting: PushSettings;
  manageStats: ManageStats;
  /** `count`: how many match. */
  manageUserList: ManagedUser[];
  manageUserCreate: ManagedUser;
  manageUserStatus: null;
  manageUserPassword: null;
  manageUserRole: null;
  manageUserLogout: null;
  manageUserSecurity: ManagedUserSecurity;
  manageSessionEnd: null;
  manageTokenRevoke: null;
  manageTwoStepReset: null;
  /** `count`: how many match. */
  manageGroupList: ManagedGroup[];
  /** `count`: how many members. */
  manageGroupMembers: ManagedMember[];
  manageGroupDisband: null;
  manageGroupOwner: null;
  manageConfigGet: ManagedConfig;
  manageConfigSet: ManagedConfig;
  /** `count`: how many in all. */
  manageInviteList: ManagedInvite[];
  manageInviteCreate: ManagedInvite;
  manageInviteRevoke: null;
  /** Newest first; `count`: how many in all. */
  manageNoticeList: ManagedNotice[];
  manageNoticePublish: ManagedNotice;
  manageNoticeDel: null;
  /** Newest first; `count`: how many match. */
  manageAuditList: AuditRow[];
  /** The directory setting; the service account's password only as `bindPasswordSet`. */
  manageLdapGet: ManagedLdap;
  manageLdapSet: ManagedLdap;
  /** By parent, `sort`, then id. */
  manageDepartmentList: Department[];
  manageDepartmentCreate: Department;
  manageDepartmentRename: null;
  manageDepartmentDel: null;
  manageUserDepartment: null;
  /** Oldest first. */
  manageKeywordLists: KeywordList[];
  manageKeywordListCreate: KeywordList;
  manageKeywordListUpdate: KeywordList;
  manageKeywordListDel: null;
  /** Newest first; `count`: how many match. */
  manageKeywordWords: KeywordWord[];
  manageKeywordAdd: KeywordAddResult;
  manageKeywordRemove: null;
  manageKeywordTest: KeywordTestResult;
  /** Oldest first; `count`: how many match. */
  manageHeldList: HeldItem[];
  manageHeldDecide: null;
  /** Newest first; `count`: how many match. */
  manageReportList: ManagedReport[];
  manageReportGet: ManagedReportDetail;
  /** The report as closed. */
  manageReportAct: ManagedReport;
  manageSsoList: ManagedSsoProvider[];
  manageSsoSave: ManagedSsoProvider;
  manageSsoDel: null;
}

/** The body a caller sends to an endpoint (before defaults and coercion). */
export type RouteBody<N extends RouteName> = z.input<(typeof routes)[N]['body']>;
/** The body after validation. */
export type RouteInput<N extends RouteName> = z.output<(typeof routes)[N]['body']>;
