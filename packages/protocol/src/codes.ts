/** Envelope codes (docs/protocol.md §1). */
export const Codes = {
  Ok: 0,
  BadRequest: 400,
  Refused: 401,
  Forbidden: 403,
  NotFound: 404,
  TooMany: 429,
  ServerError: 502,
  /** A part of the server is out of service for now (uploads when storage is full); HTTP 503. */
  Unavailable: 503,
  NoSession: -1,
} as const;
export type Code = (typeof Codes)[keyof typeof Codes];

/** Socket-level client codes (docs/product.md §4, §8). */
export const SocketCodes = {
  SendWhileClosed: 10002,
  ConnectFailed: 600009,
} as const;

/** Why the server closed a `/wss` socket: WebSocket close codes (4000–4999 are the application's). */
export const SocketCloseCodes = {
  /** Server restarting: reconnect elsewhere. */
  Restart: 1012,
  PolicyViolation: 1008,
  /** Bad or revoked token: the session has ended, as code -1 says over HTTP. */
  Unauthorized: 4001,
  /** Not bound in time. */
  BindTimeout: 4002,
  /** Silent too long. */
  Idle: 4003,
  /** Session ended (logout, password change, forced offline). */
  SessionEnded: 4004,
  /** The user's oldest socket, closed for a newer one past SOCKETS_PER_USER. */
  TooManySockets: 4005,
} as const;

/** Call signalling codes (docs/protocol.md §5). */
export const CallCodes = {
  Calling: 901,
  /** Cancelled by the caller before an answer, or not answered in time. */
  Cancelled: 902,
  Refused: 903,
  Accepted: 904,
  /** Not connected: the call failed or its peer vanished before an answer. */
  Unreachable: 905,
  /** Ended after it was answered; the message carries `callTime`. */
  Ended: 906,
  Busy: 907,
  /** Answered or refused on another device of the callee (`otherOpt`). */
  OtherDevice: 908,
} as const;
export type CallCode = (typeof CallCodes)[keyof typeof CallCodes];

/**
 * Named errors: each has an envelope code and a message key (`errors.<name>` in the server
 * message catalogue). `throw new AppError('NotMember')` on the server; one place maps it.
 */
export const ErrorCodes = {
  Validation: Codes.BadRequest,
  AccountTaken: Codes.BadRequest,
  AccountForm: Codes.BadRequest,
  PasswordMismatch: Codes.BadRequest,
  LoginFailed: Codes.BadRequest,
  OriginalPasswordWrong: Codes.BadRequest,
  CodeInvalid: Codes.BadRequest,
  CodeRequired: Codes.BadRequest,
  InviteInvalid: Codes.BadRequest,
  UserDisabled: Codes.BadRequest,
  RenameDisabled: Codes.BadRequest,
  NoSuchAccount: Codes.BadRequest,
  ClientNotLive: Codes.BadRequest,
  FriendSelf: Codes.BadRequest,
  /** One cannot block oneself. */
  BlockSelf: Codes.BadRequest,
  AlreadyFriends: Codes.BadRequest,
  RequestPending: Codes.BadRequest,
  RequestHandled: Codes.BadRequest,
  NotFriends: Codes.Forbidden,
  ProfileHidden: Codes.Forbidden,
  CallsDisabled: Codes.Forbidden,
  CallNotFound: Codes.NotFound,
  CallSelf: Codes.BadRequest,
  MomentNotFound: Codes.NotFound,
  /** The report does not exist (`/manage/report*`). */
  ReportNotFound: Codes.NotFound,
  /** The report was closed already, by another admin perhaps. */
  ReportClosed: Codes.BadRequest,
  /** The action does not fit the report's kind (a takedown of a person, dissolving a message). */
  ReportActionInvalid: Codes.BadRequest,
  /** One's own message, post or account cannot be reported. */
  ReportSelf: Codes.BadRequest,
  /** An admin muted the user across the server (a report's outcome) until `until`. */
  ServerMuted: Codes.Refused,
  FavoriteNotFound: Codes.NotFound,
  MomentCommentNotFound: Codes.NotFound,
  MomentEmpty: Codes.BadRequest,
  MomentNotImage: Codes.Refused,
  NotMember: Codes.Forbidden,
  GroupNotFound: Codes.NotFound,
  Muted: Codes.Refused,
  GroupNoSpeakAdmins: Codes.Refused,
  GroupNoSpeakOwner: Codes.Refused,
  GroupDisbanded: Codes.Refused,
  PrivateChatDisabled: Codes.Refused,
  NotFriendChat: Codes.Refused,
  GroupChatDisabled: Codes.Refused,
  SendTooFast: Codes.TooMany,
  UndoTooLate: Codes.BadRequest,
  NotYourMessage: Codes.Forbidden,
  MessageNotFound: Codes.NotFound,
  /** Reactions are turned off in the group (GroupSetting.reaction 0). */
  ReactionsOff: Codes.Refused,
  /** I have put REACTIONS_PER_USER_MAX different emoji on the message already. */
  ReactionsFull: Codes.Refused,
  /** Read receipts are off in the group, or for me (I turned off 发送已读回执). */
  ReadReceiptsOff: Codes.Refused,
  /** A status's `until` is not ahead of now. */
  StatusUntilPast: Codes.BadRequest,
  /** The poll was closed early, or its deadline passed: no vote is taken any more. */
  PollClosed: Codes.Refused,
  /** A single-choice poll takes exactly one option; a multiple-choice poll one or more (none withdraws), each an option it has. */
  PollChoice: Codes.BadRequest,
  /** A poll's deadline is in the past or too far ahead (POLL_DEADLINE_MAX_MS). */
  PollDeadline: Codes.BadRequest,
  /** The poll is anonymous: who chose what is never told. */
  PollAnonymous: Codes.Refused,
  /** Only a text I sent may be edited. */
  NotEditable: Codes.BadRequest,
  /** The text is older than `chatInfo.editTime`. */
  EditTooLate: Codes.BadRequest,
  /** A chat holds PINS_PER_CHAT_MAX pinned messages already. */
  PinsFull: Codes.Refused,
  /** A sign-up chain (接龙) is closed: no line is added, changed or taken back. */
  ChainClosed: Codes.Refused,
  /** A sign-up chain holds CHAIN_ENTRIES_MAX lines already. */
  ChainFull: Codes.Refused,
  /** Pats come too fast (PAT_INTERVAL_MS per person, PAT_PER_MINUTE_MAX a minute). */
  PatTooFast: Codes.TooMany,
  GroupTooSmall: Codes.BadRequest,
  GroupFull: Codes.BadRequest,
  InviteForbidden: Codes.Forbidden,
  NotAllowedTarget: Codes.Forbidden,
  DeleteDisabled: Codes.Forbidden,
  AlreadyMember: Codes.BadRequest,
  OwnerCannotLeave: Codes.BadRequest,
  QrInvalid: Codes.BadRequest,
  QrExpired: Codes.BadRequest,
  QrNotUser: Codes.BadRequest,
  QrNotGroup: Codes.BadRequest,
  QrJoinClosed: Codes.Forbidden,
  /** A QR login code that does not exist, expired, was used or cancelled, or was scanned by someone else: alike. */
  QrLoginGone: Codes.BadRequest,
  /**
   * A passkey's answer that does not verify: a challenge unknown, expired or used, another site's,
   * an unknown credential, a bad signature, a counter that went back. Alike, on purpose.
   */
  PasskeyInvalid: Codes.BadRequest,
  /** This passkey was added already (to this account or another). */
  PasskeyExists: Codes.BadRequest,
  /** The user has PASSKEYS_PER_USER_MAX passkeys already. */
  PasskeysFull: Codes.Refused,
  /** The user has a second factor and the client cannot take a second step (a Raingad client): use Sparrow's. */
  TwoStepClientTooOld: Codes.BadRequest,
  /** A sign-in ticket that does not exist, expired, was used, or took too many wrong codes: sign in again. */
  TwoStepTicketGone: Codes.BadRequest,
  /** The user holds TOKENS_PER_USER_MAX personal access tokens already. */
  TokensFull: Codes.Refused,
  /** A personal access token called a route outside its scopes (or one no token may call). */
  TokenScope: Codes.Forbidden,
  /** The group holds ROBOTS_PER_GROUP_MAX robots already. */
  RobotsFull: Codes.Refused,
  /** The user owns BOTS_PER_USER_MAX bots already. */
  BotsFull: Codes.Refused,
  /** A bot's webhook URL is refused by the outbound rules (scheme, credentials, an internal address). */
  WebhookRefused: Codes.BadRequest,
  /** The server requires a second factor of this user, who has none yet: nothing but setting one up until then. */
  TwoStepSetupRequired: Codes.Forbidden,
  /** Two-step sign-in is not on (or its setup was not begun). */
  TwoStepOff: Codes.BadRequest,
  /** Two-step sign-in is on already: turn it off first to set up another app. */
  TwoStepAlreadyOn: Codes.BadRequest,
  /** A single sign-on round trip that cannot finish: unknown or replayed state, the provider's error or refusal. */
  SsoFailed: Codes.BadRequest,
  /** The provider vouched for someone this server has no account for and may not create one. */
  SsoNotAllowed: Codes.Forbidden,
  /** A one-time sign-on code that does not exist, expired or was used: alike. */
  SsoCodeGone: Codes.BadRequest,
  CannotActOnSelf: Codes.BadRequest,
  VideoTooLong: Codes.Refused,
  FileTooLarge: Codes.Refused,
  FileTypeForbidden: Codes.Refused,
  FileMissing: Codes.BadRequest,
  /** The file's bytes were removed (retention, or no message used it any more): upload it again. */
  FileExpired: Codes.BadRequest,
  UploadMalformed: Codes.BadRequest,
  StorageUnavailable: Codes.Unavailable,
  /** The LDAP directory did not answer in time, or refused the service account: password sign-in through it waits. */
  DirectoryUnavailable: Codes.Unavailable,
  /** Too many uploads of this user, or of the whole server, are in progress: try again in a moment. */
  UploadBusy: Codes.TooMany,
  /** An image with more pixels than the server decodes. */
  ImageTooLarge: Codes.Refused,
  /** A request body over its route's limit (HTTP 413). */
  BodyTooLarge: Codes.BadRequest,
  /** A request body nested deeper than any schema takes (refused before it is parsed). */
  BodyTooDeep: Codes.BadRequest,
  Forbidden: Codes.Forbidden,
  /** An admin set this user's password: nothing but changing it (and signing out) until they do. */
  PasswordChangeRequired: Codes.Forbidden,
  NotFound: Codes.NotFound,
  UserNotFound: Codes.NotFound,
  /** The last administrator keeps the role (docs/protocol.md §8). */
  LastAdmin: Codes.BadRequest,
  /** An admin does not disable their own account. */
  AdminSelf: Codes.BadRequest,
  /** A department is deleted only once no one and no department is in it. */
  DepartmentNotEmpty: Codes.BadRequest,
  /** The text holds a word of a refuse list (敏感词); the word is not named. */
  KeywordRefused: Codes.Refused,
  /** A name or announcement holds a word of a refuse or review list. */
  KeywordRefusedName: Codes.Refused,
  /** A keyword list would hold more than KEYWORDS_PER_LIST_MAX words, or the server more than KEYWORD_LISTS_MAX lists. */
  KeywordListFull: Codes.BadRequest,
  /** The held item was approved or rejected already. */
  HeldDecided: Codes.BadRequest,
  TooMany: Codes.TooMany,
  LoginLocked: Codes.TooMany,
  CodeThrottled: Codes.TooMany,
  RegisterThrottled: Codes.TooMany,
  ServerError: Codes.ServerError,
  NoSession: Codes.NoSession,
} as const satisfies Record<string, Code>;
export type ErrorName = keyof typeof ErrorCodes;
