import type { Generated } from 'kysely';

/** Table shapes, as stored (snake_case). Mapping to protocol fields happens in each repo. */
export interface UsersTable {
  id: Generated<number>;
  account: string;
  password_hash: string;
  realname: string;
  email: string;
  phone: string;
  avatar: string;
  sex: number;
  motto: string;
  is_auth: number;
  role: number;
  status: number;
  language: string;
  create_time: number;
  update_time: number;
  /** 1 after an admin set the password: the user is asked to choose their own at next login. */
  must_change_password: Generated<number>;
  /** JSON object a Raingad client's settings dialog saved (`/enterprise/im/setting`); `{}` by default. */
  setting: Generated<string>;
  /** The user's department (departments.id), 0 for none. */
  dep_id: Generated<number>;
  /** What a pat of this user adds after their name (拍一拍后缀, migration 023); '' for none. */
  pat_suffix: Generated<string>;
  /** Until when an admin muted the user across the server (a report's outcome, migration 027), ms; 0 never. */
  muted_until: Generated<number>;
  /** When the user deleted their account (status 2, migration 029), ms; 0 for an account in use. */
  deleted_at: Generated<number>;
  /** 发送已读回执 (migration 034): 1 when the user's reads count in groups' receipts. */
  read_receipt: Generated<number>;
  /** 1 for a bot account (migration 045): no password, its owner's program signs in with its token. */
  is_bot: Generated<number>;
  /** When the user's last socket went (migration 037), ms; null until first seen going offline. */
  last_seen: number | null;
  /** Who sees `last_seen` (migration 037): 0 everyone who may see the profile, 1 friends, 2 nobody. */
  last_seen_to: Generated<number>;
  /** The status's text (状态, migration 037); '' for none. */
  status_text: Generated<string>;
  /** The status's one emoji; '' for none. */
  status_emoji: Generated<string>;
  /** When the status stops showing, ms; null while it lasts until changed. */
  status_until: number | null;
  /** The version of the status (migration 037): raised by every change, so clients keep the newest. */
  status_at: Generated<number>;
  /** 对方正在输入… (migration 038): 1 when others see this user typing and the user sees theirs. */
  typing: Generated<number>;
  /** 1 while the user has a second factor, an enabled TOTP or a passkey (migration 040). */
  two_step: Generated<number>;
}

/** A department of the organisation; `parent_id` 0 at the top level. */
export interface DepartmentsTable {
  id: Generated<number>;
  name: string;
  parent_id: number;
  sort: number;
  create_time: number;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  cid: string;
  is_mobile: number;
  user_agent: string;
  ip: string;
  create_time: number;
  last_seen: number;
  expires_at: number;
  revoked_at: number | null;
  /** How it was made: '' by password or code, 'qr' by QR login (migration 033). */
  via: Generated<string>;
  /** The session that confirmed a QR login, else 0. */
  approved_by: Generated<number>;
}

/** A device a user has signed in on (migration 041): modules/auth/device-key.ts's key, when first seen. */
export interface UserDevicesTable {
  user_id: number;
  device_key: string;
  first_seen: number;
}

/** An identity a provider vouches for, linked to a user (migration 039): 'oidc:<id>' or 'ldap'. */
export interface UserIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  subject: string;
  email: Generated<string>;
  create_time: number;
  last_used: number;
}

/** An OpenID Connect issuer the operator configured (migration 042); `client_secret` sealed, '' for none. */
export interface SsoProvidersTable {
  id: string;
  issuer: string;
  client_id: string;
  client_secret: Generated<string>;
  scopes: Generated<string>;
  label: string;
  create_accounts: Generated<number>;
  link_email: Generated<number>;
  admin_claim: Generated<string>;
  admin_value: Generated<string>;
  enabled: Generated<number>;
  create_time: number;
  update_time: number;
}

/** One single sign-on round trip (migration 042): 0 started, 1 returned (one-time code issued), 2 exchanged. */
export interface SsoLoginsTable {
  id: Generated<number>;
  state: string;
  provider: string;
  verifier: string;
  nonce: string;
  redirect_uri: string;
  step: Generated<number>;
  user_id: Generated<number>;
  code_hash: Generated<string>;
  create_time: number;
  expires_at: number;
}

/** A user's authenticator-app seed (migration 040): sealed; `enabled_at` 0 while the setup waits for a code. */
export interface UserTotpTable {
  user_id: number;
  secret: string;
  enabled_at: Generated<number>;
  /** The newest 30-second step a code was accepted for: each code is good once. */
  last_step: Generated<number>;
  create_time: number;
}

/** A single-use recovery code (migration 040), as its HMAC; `used_at` 0 until used. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Generated<number>;
  create_time: number;
}

/** A WebAuthn credential (migration 040); `credential_id` and `public_key` base64url. */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: Generated<number>;
  /** The authenticator's transports, comma-separated. */
  transports: Generated<string>;
  /** 'singleDevice' or 'multiDevice', as the registration said. */
  device_type: Generated<string>;
  backed_up: Generated<number>;
  name: Generated<string>;
  create_time: number;
  last_used: Generated<number>;
}

/** A personal access token (migration 043): its secret's SHA-256, scopes comma-separated, `expires_at` 0 never. */
export interface AccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  hint: string;
  scopes: string;
  create_time: number;
  expires_at: Generated<number>;
  last_used: Generated<number>;
}

/** A group's robot (migration 044): the account it posts as, its webhook key as SHA-256 and sealed. */
export interface GroupRobotsTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  key_hash: string;
  key_sealed: string;
  create_user: number;
  create_time: number;
  last_used: Generated<number>;
}

/** A bot account's owner and outgoing webhook (migration 045); its secret sealed. */
export interface BotsTable {
  user_id: number;
  owner_id: number;
  webhook_url: Generated<string>;
  webhook_secret: string;
  webhook_state: Generated<string>;
  failures: Generated<number>;
  create_time: number;
}

/** An event owed to a bot's webhook (migration 045), until delivered or given up. */
export interface BotDeliveriesTable {
  id: Generated<number>;
  bot_id: number;
  event_id: string;
  msg_id: number;
  payload: string;
  status: Generated<string>;
  attempts: Generated<number>;
  next_at: number;
  claimed_until: Generated<number>;
  last_status: Generated<number>;
  last_error: Generated<string>;
  create_time: number;
  done_time: Generated<number>;
}

/** A WebAuthn challenge handed out (migration 040), used once; `user_id` 0 for a sign-in by any passkey. */
export interface WebauthnChallengesTable {
  id: Generated<number>;
  challenge: string;
  user_id: Generated<number>;
  /** 'register' or 'login'. */
  purpose: string;
  expires_at: number;
}

/** A sign-in waiting for its second factor (migration 040): the ticket's SHA-256 and the client as JSON. */
export interface LoginTicketsTable {
  id: Generated<number>;
  ticket_hash: string;
  user_id: number;
  via: Generated<string>;
  client: string;
  failures: Generated<number>;
  create_time: number;
  expires_at: number;
}

/** A QR login code (扫码登录, migration 033): 0 waiting, 1 scanned, 2 confirmed, 3 cancelled. */
export interface QrLoginsTable {
  id: Generated<number>;
  code: string;
  /** SHA-256 of the secret only the page showing the code holds; the confirmed session's token hash. */
  secret_hash: string;
  state: Generated<number>;
  /** Who scanned it, 0 before. */
  user_id: Generated<number>;
  /** The session confirming made, 0 before. */
  session_id: Generated<number>;
  /** The page's user agent and address, for the session it becomes. */
  user_agent: string;
  ip: string;
  /** The page's install id (its `cid` header; migration 041), for the session it becomes. */
  cid: Generated<string>;
  create_time: number;
  expires_at: number;
}

export interface VerifyCodesTable {
  id: Generated<number>;
  account: string;
  type: number;
  code_hash: string;
  tries: number;
  used: number;
  expires_at: number;
  create_time: number;
}

export interface ConfigTable {
  key: string;
  value: string;
}

export interface InviteCodesTable {
  code: string;
  created_by: number;
  uses_left: number;
  expires_at: number;
  create_time: number;
}

export interface FilesTable {
  id: Generated<number>;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  cate: number;
  width: number;
  height: number;
  create_time: number;
  /** Voice and video length, ms. */
  duration: Generated<number>;
  /** URL of an image's thumbnail. */
  thumb: Generated<string>;
  /** Where the bytes are (`ab/<sha256>.<ext>`). */
  storage_key: Generated<string>;
  /** When its bytes were removed from storage, ms; 0 while they are kept (migration 031). */
  removed_at: Generated<number>;
}

export interface UserFilesTable {
  id: Generated<number>;
  user_id: number;
  file_id: number;
  /** The name it was uploaded under, made safe. */
  name: string;
  create_time: number;
}

export interface EmojiTable {
  id: Generated<number>;
  user_id: number;
  file_id: number;
  name: string;
  /** Higher first; moving to the front sets it above all others. */
  sort: number;
  create_time: number;
}

export interface FriendsTable {
  id: Generated<number>;
  user_id: number;
  friend_user_id: number;
  nickname: string;
  create_time: number;
}

export interface FriendRequestsTable {
  id: Generated<number>;
  create_user: number;
  user_id: number;
  remark: string;
  status: number;
  create_time: number;
  update_time: number;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  avatar: string;
  owner_id: number;
  notice: string;
  /** JSON of GroupSetting. */
  setting: string;
  /** 1 when the avatar was uploaded; 0 when it is drawn from the members' avatars. */
  avatar_custom: Generated<number>;
  /** Raised by every join and leave (see GroupRepo.memberIds). */
  member_version: Generated<number>;
  /** The generation of the group's QR codes: a code made in an older one no longer admits anyone. */
  qr_generation: Generated<number>;
  status: number;
  create_time: number;
  update_time: number;
}

export interface GroupMembersTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  role: number;
  nickname: string;
  no_speak_until: number;
  join_time: number;
  /** The newest msg_id when the member joined: without `history`, they see only later ones. */
  join_msg_id: number;
}

/** A message pinned in a chat (migration 023): at most PINS_PER_CHAT_MAX per chat. */
export interface ChatPinsTable {
  chat_key: string;
  msg_id: number;
  /** Who pinned it. */
  pinned_by: number;
  /** When, ms. */
  create_time: number;
}

/** A group's code a Raingad client scanned (migration 021): what it may then open by the group's id. */
export interface GroupScansTable {
  user_id: number;
  group_id: number;
  /** The generation of the code scanned. */
  generation: number;
  /** When the code scanned stops working, ms. */
  expires_at: number;
}

export interface MessagesTable {
  id: Generated<number>;
  client_id: string;
  from_user: number;
  /** 0 private, 1 group, 3 my file transfer. */
  chat_type: number;
  /** Recipient user, group, or (file transfer) the sender. */
  to_id: number;
  /** `p:<low>:<high>` for a private pair, `g:<id>`, or `s:<user>`. */
  chat_key: string;
  type: string;
  content: string;
  extends: string;
  at: string;
  pid: number;
  file_id: number;
  is_undo: number;
  is_deleted: number;
  create_time: number;
  /** The words search finds it by (text, file name, place, card name); indexed by words after the commit (migration 019). */
  search_text: Generated<string>;
  /** When its text was last edited, ms; 0 never (migration 022). */
  edited_at: Generated<number>;
}

/** One person's reaction with one emoji to a message (migration 022). */
export interface MessageReactionsTable {
  msg_id: number;
  user_id: number;
  emoji: string;
  /** When, ms. */
  create_time: number;
}

/** A poll (投票) in a group (migration 036). */
export interface PollsTable {
  id: Generated<number>;
  /** The message carrying it; 0 until that message is stored. */
  msg_id: number;
  group_id: number;
  creator: number;
  question: string;
  /** JSON array of the options' texts. */
  options: string;
  multiple: number;
  anonymous: number;
  /** ms, 0 for none. */
  deadline: number;
  /** 1 once closed early. */
  closed: number;
  closed_at: number;
  /** The client-made id of its message, unique per creator: a retried start finds the poll it made. */
  client_id: string;
  create_time: number;
}

/** One voter's chosen option of a poll (migration 036). */
export interface PollVotesTable {
  poll_id: number;
  user_id: number;
  option: number;
  create_time: number;
}

/** An earlier version of an edited text (migration 022). */
export interface MessageEditsTable {
  id: Generated<number>;
  msg_id: number;
  /** The text as it was before this edit. */
  content: string;
  /** When this edit replaced it, ms. */
  edited_at: number;
  /** Who edited it. */
  by: number;
}

export interface MessageHiddenTable {
  user_id: number;
  msg_id: number;
}

/**
 * A user's side of one chat. The chat's last message is read off the messages (the newest one
 * the user can see); so is a group member's unread count (those from others after
 * `read_msg_id`), so that a group message writes no row per member.
 */
export interface ConversationsTable {
  id: Generated<number>;
  user_id: number;
  chat_key: string;
  /** With `hidden`: the newest message when the chat was taken off the list. */
  last_msg_id: Generated<number>;
  /** When a group row was created (a group without messages sorts by it). */
  last_time: Generated<number>;
  /** Private and own chats: messages from the other side after `read_msg_id`. */
  unread: Generated<number>;
  is_at: Generated<number>;
  is_top: Generated<number>;
  is_notice: Generated<number>;
  /** 1: taken off the list (delChat) until a message newer than `last_msg_id` arrives. */
  hidden: Generated<number>;
  read_msg_id: Generated<number>;
  clear_msg_id: Generated<number>;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  title: string;
  notice: string;
  create_time: number;
}

export interface MomentPostsTable {
  id: Generated<number>;
  user_id: number;
  /** The author's own id of the post, so that publishing again returns the same post. */
  client_id: string;
  content: string;
  /** JSON of `{name, address, latitude, longitude}`, or ''. */
  location: Generated<string>;
  /** 1 all friends, 2 only me, 3 only these, 4 all friends but these (moment_targets). */
  visibility: number;
  create_time: number;
}

export interface MomentImagesTable {
  id: Generated<number>;
  post_id: number;
  file_id: number;
  sort: number;
}

export interface MomentTargetsTable {
  post_id: number;
  user_id: number;
}

export interface MomentLikesTable {
  id: Generated<number>;
  post_id: number;
  user_id: number;
  create_time: number;
}

export interface MomentCommentsTable {
  id: Generated<number>;
  post_id: number;
  user_id: number;
  /** The user this comment answers, or 0. */
  reply_to_user: Generated<number>;
  content: string;
  create_time: number;
}

export interface MomentNoticesTable {
  id: Generated<number>;
  /** Who is told. */
  user_id: number;
  actor_id: number;
  post_id: number;
  /** 1 like, 2 comment. */
  kind: number;
  comment_id: Generated<number>;
  create_time: number;
}

export interface MomentSettingsTable {
  user_id: number;
  cover_file_id: Generated<number>;
  /** How many days back friends see my posts; 0 all. */
  range_days: Generated<number>;
  read_notice_id: Generated<number>;
  seen_post_id: Generated<number>;
}

export interface MomentHidesTable {
  owner_id: number;
  /** 1 the owner hides their posts from other_id; 2 the owner skips other_id's posts. */
  kind: number;
  other_id: number;
}

/** A reader's feed: the posts whose visibility admits them, written when published or befriended. */
export interface MomentTimelineTable {
  user_id: number;
  post_id: number;
  author_id: number;
}

/** What an admin did (docs/protocol.md §8); rows are only ever added (the database refuses anything else). */
export interface AuditLogTable {
  id: Generated<number>;
  admin_id: number;
  action: string;
  target: string;
  /** JSON of the action's facts (never a password). */
  detail: string;
  ip: string;
  create_time: number;
}

/** The server's VAPID key pair (one row, id 1), base64url as the web-push package makes them. */
export interface PushVapidTable {
  id: number;
  public_key: string;
  private_key: string;
  create_time: number;
}

/** A browser's push subscription (PushSubscription.toJSON()). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** The session that subscribed: once it ends (sign-out, password change, expiry) nothing is pushed. */
  session_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  create_time: number;
  /** Pushes in a row the push service did not take (migration 015); 0 after one it takes. */
  failures: Generated<number>;
  /** When the current run of failures began; null while pushes go through. */
  failing_since: number | null;
}

/** The last message id the search index has seen: one row (migration 019). */
export interface SearchIndexedTable {
  id: number;
  through: number;
}

/** A message stored and not yet pushed (migration 017). */
export interface MessageOutboxTable {
  msg_id: number;
  /** When the sweep may push it, ms. */
  due: number;
}

/** 1: a push shows the sender and the message; 0: only that a message came. No row: 1. */
export interface PushSettingsTable {
  user_id: number;
  preview: Generated<number>;
}

/** A report (投诉, migration 027) and what became of it. */
export interface ReportsTable {
  id: Generated<number>;
  reporter_id: number;
  /** 'user', 'message', 'group' or 'moment' (protocol REPORT_KINDS). */
  kind: string;
  /** The user id, msg_id, group number or post id. */
  target_id: number;
  /** Whom the actions on people concern: the person, the sender, the group's owner, the author. */
  target_user_id: number;
  /** One of protocol REPORT_REASONS. */
  reason: string;
  text: Generated<string>;
  /** JSON ReportEvidence: what the reporter saw when reporting. */
  evidence: string;
  /** 'new', 'review' or 'closed'. */
  status: string;
  /** What was done (protocol REPORT_ACTIONS), '' while open. */
  action: Generated<string>;
  /** The admin who opened or closed it; 0 the command line; null none yet. */
  handler_id: number | null;
  /** `reporter:kind:target` while open, null once closed (unique: one open report per reporter and target). */
  open_key: string | null;
  create_time: number;
  closed_time: Generated<number>;
}

/** A file a report keeps stored (migration 027): `attached` 1 for the reporter's pictures. */
export interface ReportFilesTable {
  report_id: number;
  file_id: number;
  attached: Generated<number>;
}

/** A merged forward's snapshot (migration 025): `body` is the JSON of its items, oldest first. */
export interface ForwardRecordsTable {
  id: Generated<number>;
  /** Who forwarded it. */
  owner_id: number;
  body: string;
  create_time: number;
}

/** A group sign-up chain (接龙, migration 035): `msg_id` its `chain` message; `closed` 1 once 已结束. */
export interface ChainsTable {
  id: Generated<number>;
  msg_id: Generated<number>;
  group_id: number;
  creator: number;
  title: string;
  /** '' for none. */
  example: Generated<string>;
  closed: Generated<number>;
  /** Bumped by every change of the chain or its lines. */
  rev: Generated<number>;
  /** The client-made id of the chain's message, unique per creator. */
  client_id: string;
  create_time: number;
}

/** A line of a chain (migration 035): `seq` orders them; one per member. */
export interface ChainEntriesTable {
  chain_id: number;
  seq: number;
  user_id: number;
  /** The member's group nickname, or name, when the line was added. */
  name: string;
  text: string;
  create_time: number;
}

/** A file an item of a record carries: kept served while the record holds it (migration 025). */
export interface ForwardRecordFilesTable {
  record_id: number;
  file_id: number;
}

/** A block (黑名单, migration 026): `blocker_id` blocked `blocked_id`. */
export interface BlocksTable {
  blocker_id: number;
  blocked_id: number;
  /** When, ms. */
  create_time: number;
}

/** A favourite (收藏, migration 024): a snapshot of a message or a moments post a user saved. */
export interface FavouritesTable {
  id: Generated<number>;
  user_id: number;
  /** 'message' or 'moment'. */
  kind: string;
  /** The message's type, or 'moment'. */
  type: string;
  /** The message it was saved from, 0 for a post. */
  source_msg_id: number;
  /** The post it was saved from, 0 for a message. */
  source_post_id: number;
  /** JSON FavoriteSnapshot: type, content, extends, sender, send time, the chat's name. */
  body: string;
  /** The words it is found by (modules/im/search-text.ts). */
  search_text: string;
  /** The file it shows (a message's file, a post's first picture), 0 for none. */
  file_id: number;
  create_time: number;
}

/** The retention sweep's lease and what its last run did: one row, id 1 (migration 031). */
export interface RetentionSweepTable {
  id: number;
  /** The node sweeping now (or last), by a name it drew at start. */
  holder: string;
  /** Until when its lease holds, ms; another node may sweep after it. */
  lease_until: number;
  last_start: number;
  last_end: number;
  /** Messages the last sweep deleted. */
  last_messages: number;
  /** Messages whose file the last sweep expired. */
  last_files: number;
}

/** Every file a favourite keeps stored (migration 024). */
export interface FavouriteFilesTable {
  favourite_id: number;
  file_id: number;
}

/** An export of a user's own data (migration 030): queued, running, done, failed or expired. */
export interface DataExportsTable {
  id: Generated<number>;
  user_id: number;
  state: string;
  /** 0–100. */
  progress: Generated<number>;
  /** The archive's bytes, once done. */
  size: Generated<number>;
  /** The archive in the uploads store, once done; '' before and after. */
  storage_key: Generated<string>;
  /** While running: until when the node building it holds it, ms; another node may claim it after. */
  lease_until: Generated<number>;
  /** How many times a node began building it. */
  attempts: Generated<number>;
  create_time: number;
  finish_time: Generated<number>;
  /** When the archive is deleted, ms (once done). */
  expires_at: Generated<number>;
}

/** A keyword list (敏感词, migration 028): its words are refused, replaced by *** or held for review. */
export interface KeywordListsTable {
  id: Generated<number>;
  name: string;
  /** 'refuse', 'replace' or 'review'. */
  action: string;
  /** 1 while its words apply. */
  enabled: number;
  create_time: number;
}

/** A word or pattern of a keyword list (migration 028), as the operator wrote it. */
export interface KeywordWordsTable {
  id: Generated<number>;
  list_id: number;
  word: string;
}

/** Something a review list held back (migration 028): a message, a moments post or comment, until an operator decides. */
export interface HeldItemsTable {
  id: Generated<number>;
  /** 'message', 'moment' or 'comment'. */
  kind: string;
  /** Its author. */
  user_id: number;
  /**
   * The author's client-made id (a message's `id`), a post's id as text, or a comment's post id and
   * a hash of what it says (`<post id>:<hash>`, the same for a retry).
   */
  client_id: string;
  /** A message's chat: its chat type and the peer or group id; 0 for the others. */
  chat_type: number;
  to_id: number;
  /** JSON: a message's draft, or what the post or comment carries. */
  body: string;
  /** A held message's file (0 for none): kept while the message waits (FileRepo.inUse). */
  file_id: Generated<number>;
  /** JSON array of the words that held it. */
  words: string;
  /** 0 waiting, 1 approved, 2 rejected (or approved and no longer deliverable). */
  status: number;
  create_time: number;
  decide_time: number;
  /** The admin who decided, 0 for the command line. */
  decided_by: number;
}

export interface Database {
  users: UsersTable;
  data_exports: DataExportsTable;
  sessions: SessionsTable;
  qr_logins: QrLoginsTable;
  user_devices: UserDevicesTable;
  user_identities: UserIdentitiesTable;
  sso_providers: SsoProvidersTable;
  sso_logins: SsoLoginsTable;
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  access_tokens: AccessTokensTable;
  group_robots: GroupRobotsTable;
  bots: BotsTable;
  bot_deliveries: BotDeliveriesTable;
  webauthn_challenges: WebauthnChallengesTable;
  login_tickets: LoginTicketsTable;
  verify_codes: VerifyCodesTable;
  config: ConfigTable;
  invite_codes: InviteCodesTable;
  files: FilesTable;
  friends: FriendsTable;
  friend_requests: FriendRequestsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  group_scans: GroupScansTable;
  favourites: FavouritesTable;
  blocks: BlocksTable;
  favourite_files: FavouriteFilesTable;
  chat_pins: ChatPinsTable;
  messages: MessagesTable;
  message_hidden: MessageHiddenTable;
  message_reactions: MessageReactionsTable;
  message_edits: MessageEditsTable;
  polls: PollsTable;
  poll_votes: PollVotesTable;
  conversations: ConversationsTable;
  announcements: AnnouncementsTable;
  user_files: UserFilesTable;
  emoji: EmojiTable;
  moment_posts: MomentPostsTable;
  moment_images: MomentImagesTable;
  moment_targets: MomentTargetsTable;
  moment_likes: MomentLikesTable;
  moment_comments: MomentCommentsTable;
  moment_notices: MomentNoticesTable;
  moment_settings: MomentSettingsTable;
  moment_hides: MomentHidesTable;
  moment_timeline: MomentTimelineTable;
  audit_log: AuditLogTable;
  push_vapid: PushVapidTable;
  push_subscriptions: PushSubscriptionsTable;
  push_settings: PushSettingsTable;
  message_outbox: MessageOutboxTable;
  search_indexed: SearchIndexedTable;
  departments: DepartmentsTable;
  forward_records: ForwardRecordsTable;
  forward_record_files: ForwardRecordFilesTable;
  chains: ChainsTable;
  chain_entries: ChainEntriesTable;
  reports: ReportsTable;
  report_files: ReportFilesTable;
  retention_sweep: RetentionSweepTable;
  keyword_lists: KeywordListsTable;
  keyword_words: KeywordWordsTable;
  held_items: HeldItemsTable;
}
