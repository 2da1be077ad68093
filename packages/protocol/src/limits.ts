/**
 * Business constants and limits: docs/product.md §9 and docs/protocol.md §1. Used by input boxes, schemas and the
 * database alike, so that a limit is written once.
 */
import { version } from '../../../package.json';

/**
 * The release: shown in About and the console, reported by /healthz, compared by checkVersion
 * (docs/product.md §9). Its one home is the root package.json's `version`, which CHANGELOG.md's
 * newest entry names.
 */
export const APP_VERSION: string = version;
/**
 * The release's version code, its date as YYYYMMDD (CHANGELOG.md), which Raingad clients send to
 * checkVersion instead of a version (docs/compatibility.md).
 */
export const APP_VERSION_CODE = 20261130;
/**
 * The version code of the newest Raingad app build (6.1.0). A Raingad app sending it to checkVersion
 * is told it is current: no newer build of that app exists to install, and the web client's address
 * offered on every start would only nag (docs/compatibility.md). Older builds are offered the update.
 */
export const RAINGAD_NEWEST_CODE = 20250916;

/**
 * The largest id of a row (user, group, message, file…) read from a request: 2^53 − 1, the largest
 * integer a JS number holds exactly, well inside PostgreSQL's bigint and SQLite's integer, so an id
 * is bound into SQL as it is on either database. Sequences number rows from 1 and never come near
 * it (9·10^15 rows), so no row has it: an id written larger reads as ID_MAX (`readId`) and is
 * answered as an unknown id is.
 */
export const ID_MAX = Number.MAX_SAFE_INTEGER;

export const ACCOUNT_MIN = 4;
export const ACCOUNT_MAX = 32;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 16;
/**
 * The longest password a sign-in takes: a directory account's (LDAP) is the directory's and may be
 * longer than a password Sparrow sets (PASSWORD_MAX); still bounded before any key derivation.
 */
export const LOGIN_PASSWORD_MAX = 128;
export const REALNAME_MIN = 1;
export const REALNAME_MAX = 32;
export const MOTTO_MAX = 120;
export const GROUP_NAME_MAX = 64;
export const TEXT_MESSAGE_MAX = 2048;
export const ANNOUNCEMENT_MAX = 5000;
/** Search keywords, characters. */
export const KEYWORDS_MAX = 100;
/** A friend request's note, characters. */
export const FRIEND_NOTE_MAX = 100;
/** A place's name and address in a location message, characters. */
export const PLACE_NAME_MAX = 100;
export const PLACE_ADDRESS_MAX = 200;

/** HTTP request time-out, ms (docs/product.md §9). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Framework default for other network use, ms (docs/product.md §9). */
export const NETWORK_TIMEOUT_MS = 60_000;

/** Socket heartbeat interval, ms (docs/product.md §4, §9). */
export const HEARTBEAT_MS = 25_000;
/** Wait before a reconnect attempt, ms (docs/product.md §9): the longest window a retry is drawn from. */
export const RECONNECT_WAIT_MS = 15_000;
/**
 * The window of the first retry after a connection is lost, ms; each failed attempt in a row
 * doubles it, up to RECONNECT_WAIT_MS. A restarted server is back within a second or two, and
 * a first window of the whole 15 s kept its last users away for 15 s.
 */
export const RECONNECT_FIRST_WAIT_MS = 1_000;
/** Retries after failures to open the socket (docs/product.md §9). */
export const RECONNECT_MAX_OPEN_FAILURES = 10;
/** Retries after an open socket closed (docs/product.md §9). */
export const RECONNECT_MAX_CLOSES = 5;
/** A socket not bound within this time is closed, ms (docs/protocol.md §4). */
export const SOCKET_BIND_TIMEOUT_MS = 30_000;
/** A socket silent this long is closed, ms (docs/protocol.md §4). */
export const SOCKET_IDLE_TIMEOUT_MS = 60_000;

/** Default message withdraw window, s (docs/product.md §9). */
export const REDO_TIME_DEFAULT_S = 86_400;
/** Default window in which the sender of a text may edit it, s (`chatInfo.editTime`; Telegram allows 48 h). */
export const EDIT_TIME_DEFAULT_S = 86_400;
/** The most different emoji one person may put on one message; a further one is refused until one is taken back. */
export const REACTIONS_PER_USER_MAX = 3;
/** The longest a reaction's emoji may be, UTF-16 units (one grapheme: a family or a flag with its tags fits). */
export const REACTION_EMOJI_UNITS_MAX = 16;
/** The most people `messageReactions` lists for one emoji (the rest are counted, not listed). */
export const REACTORS_LISTED_MAX = 200;
/** The fewest options a poll (投票) has. */
export const POLL_OPTIONS_MIN = 2;
/** The most options a poll has. */
export const POLL_OPTIONS_MAX = 20;
/** The longest question of a poll, characters. */
export const POLL_QUESTION_MAX = 200;
/** The longest option of a poll, characters. */
export const POLL_OPTION_MAX = 80;
/** How far ahead a poll's deadline may lie, ms (a year). */
export const POLL_DEADLINE_MAX_MS = 365 * 86_400_000;
/** The most voters `pollVoters` names per option (the rest are counted, not listed). */
export const POLL_VOTERS_LISTED_MAX = 500;
/** The least time between two `poll` pushes of one poll from one server, ms: a burst of votes is told once. */
export const POLL_PUSH_INTERVAL_MS = 1_000;
/** The most of my messages `groupReadCounts` answers for at once (a screenful of a chat and more). */
export const READ_COUNTS_IDS_MAX = 100;
/**
 * The most people each list of `groupReadList` names (已读 and 未读); beyond it they are counted, not
 * listed. As large as the biggest groups the receipts are measured for (bench/read-receipts.mjs).
 */
export const READ_LISTED_MAX = 2000;
/**
 * The most senders one `setMsgIsRead` in a group tells by `readReceipt`, found among the newest
 * READ_RECEIPT_SCAN_MAX messages it covered: the work of one read stays bounded however much
 * was unread; the others' counts are right when next asked.
 */
export const READ_RECEIPT_SENDERS_MAX = 50;
export const READ_RECEIPT_SCAN_MAX = 500;
/** How long after withdrawing a text its sender may take it back into the composer (重新编辑), ms. */
export const REEDIT_WINDOW_MS = 5 * 60_000;
/** The most messages pinned in one chat at once (置顶消息); a further pin is refused until one is unpinned. */
export const PINS_PER_CHAT_MAX = 10;
/** The most lines a group sign-up chain (接龙) takes; a further line is refused, its chain full. */
export const CHAIN_ENTRIES_MAX = 200;
/** Characters of a chain's title. */
export const CHAIN_TITLE_MAX = 100;
/** Characters of a chain's example line, and of each line added to it. */
export const CHAIN_TEXT_MAX = 100;
/** The least time between two `chain` pushes of one chain from one server, ms: a burst of lines is told once. */
export const CHAIN_PUSH_INTERVAL_MS = 1_000;
/** The longest status text (状态, e.g. "开会中"), characters. */
export const STATUS_TEXT_MAX = 24;
/** How far ahead a status's expiry may lie, ms (a year). */
export const STATUS_UNTIL_MAX_MS = 365 * 86_400_000;
/** The longest suffix a user adds to a pat of them ("拍了拍 张三 的肩膀"), characters. */
export const PAT_SUFFIX_MAX = 16;
/** How long the patter may withdraw a pat line (拍一拍), ms; it then vanishes for everyone. */
export const PAT_WITHDRAW_MS = 2 * 60_000;
/** One pat of the same person in the same chat per this long, ms. */
export const PAT_INTERVAL_MS = 10_000;
/** The most pats one user sends in a minute, across all chats. */
export const PAT_PER_MINUTE_MAX = 20;
/**
 * 对方正在输入… (docs/protocol.md §4 `typing`): while the box keeps changing, the client sends `typing` 1
 * again this often, ms; the server drops a socket's `typing` 1 sooner than this after its last one.
 */
export const TYPING_RESEND_MS = 4_000;
/** After this long without a keystroke the client sends `typing` 0, ms. */
export const TYPING_PAUSE_MS = 5_000;
/** How long a receiver shows someone as typing without a fresh `typing` 1, ms. */
export const TYPING_SHOWN_MS = 6_500;
/**
 * The server drops a socket's `typing` 1 to a chat sooner than this after its last one there (unless a
 * `typing` 0 came between), ms: a little under TYPING_RESEND_MS, for the network's jitter.
 */
export const TYPING_MIN_GAP_MS = 3_000;
/** The most `typing` frames of either state a socket may send per TYPING_RESEND_MS; the server drops those past it. */
export const TYPING_FRAMES_PER_INTERVAL = 6;
/** Groups with more members than this show no one typing, and the server relays nothing for them. */
export const TYPING_GROUP_MAX = 20;
/** Forwarding targets (docs/product.md §5, §9). */
export const FORWARD_MIN = 1;
export const FORWARD_MAX = 5;
/** Messages one favoriteAdd saves, and favourites one favoriteDel removes (a multi-select's most). */
export const FAVORITE_BATCH_MAX = 100;
/** The longest text a report (投诉) adds to its reason, characters. */
export const REPORT_TEXT_MAX = 200;
/** The most pictures a report carries. */
export const REPORT_PICTURES_MAX = 4;
/** Reports one user files in an hour. */
export const REPORTS_PER_HOUR_MAX = 20;
/** Messages kept on either side of a reported message as its evidence. */
export const REPORT_CONTEXT_EACH_SIDE = 5;
/** Messages one multi-select forward (forwardMessages) takes, and one merged record (合并转发) holds. */
export const FORWARD_RECORD_MAX = 100;
/** Lines of a record's card: the first messages' previews, "name: text". */
export const FORWARD_RECORD_LINES = 4;
/** Bytes of a record's items as stored (JSON); a larger selection is refused before anything is written. */
export const FORWARD_RECORD_BYTES_MAX = 2 * 1024 * 1024;
/** Records opened through one another from the one a message carries (a record of records of …). */
export const FORWARD_RECORD_DEPTH_MAX = 16;
/** Records read at most while looking for one held inside another (forwardRecord's `record_id`). */
export const FORWARD_RECORD_SEARCH_MAX = 1_000;
/** Longest video, s (docs/product.md §9). */
export const VIDEO_MAX_S = 60;
/** QR code validity, ms (docs/product.md §9: 7 days). */
export const QR_VALID_MS = 7 * 24 * 3600 * 1000;
/** How long a QR login code (扫码登录) works, ms: about two minutes, counted again from its scan. */
export const QR_LOGIN_VALID_MS = 2 * 60_000;
/** How often the page showing a QR login code asks for its state, ms. */
export const QR_LOGIN_POLL_MS = 1_500;
/**
 * How often a login page in a background tab asks, ms: a phone scans a code that is on screen, so a
 * hidden page only needs to notice a code's end; every ask counts against the address's call limit.
 */
export const QR_LOGIN_HIDDEN_POLL_MS = 6_000;
/** How long a passkey's challenge (WebAuthn) may be answered, ms: the browser's prompt waits as long. */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000;
/** Passkey options one address may ask for in a minute (each is a challenge row until it expires). */
export const PASSKEY_OPTIONS_PER_MINUTE = 30;
/** The most passkeys one user may add. */
export const PASSKEYS_PER_USER_MAX = 20;
/** The longest passkey name, characters (graphemes). */
export const PASSKEY_NAME_MAX = 32;
/** The most personal access tokens one user may hold. */
export const TOKENS_PER_USER_MAX = 20;
/** The longest token name, characters (graphemes). */
export const TOKEN_NAME_MAX = 32;
/** The longest a token may live, days (0, never ending, is allowed too). */
export const TOKEN_DAYS_MAX = 365;
/** How often a token in use records its last use, ms. */
export const TOKEN_TOUCH_MS = 60_000;
/** The most robots (群机器人) one group may hold. */
export const ROBOTS_PER_GROUP_MAX = 10;
/** The longest robot name, characters (graphemes). */
export const ROBOT_NAME_MAX = 32;
/** Messages one robot may post in a minute (WeCom's group robots take 20). */
export const ROBOT_MESSAGES_PER_MINUTE = 20;
/** The largest image a robot posts, bytes before base64 (WeCom's 2 MB). */
export const ROBOT_IMAGE_MAX = 2 * 1024 * 1024;
/** The largest body a robot's webhook reads, bytes: the image as base64 and the rest of the JSON. */
export const ROBOT_BODY_MAX = Math.ceil((ROBOT_IMAGE_MAX * 4) / 3) + 16 * 1024;
/** The most links of a robot's news message (WeCom's 8). */
export const ROBOT_ARTICLES_MAX = 8;
/** The most people one robot message names (mentioned_list and mentioned_mobile_list together). */
export const ROBOT_MENTIONS_MAX = 50;
/** The most bot accounts one user may own. */
export const BOTS_PER_USER_MAX = 5;
/** The longest URL of a bot's outgoing webhook, characters. */
export const BOT_WEBHOOK_URL_MAX = 2048;
/**
 * When a bot's webhook delivery is tried again after each failed try, ms after it (Standard
 * Webhooks' schedule, shortened): after the last, the delivery has failed.
 */
export const BOT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;
/** Failed tries in a row (across deliveries) after which a bot's webhook is turned off until its owner sets it again. */
export const BOT_FAILURES_MAX = 10;
/** How long a bot's webhook may take to answer a delivery, ms. */
export const BOT_DELIVERY_TIMEOUT_MS = 10_000;
/** The deliveries a bot's owner sees in its log, newest first. */
export const BOT_DELIVERIES_SHOWN = 50;
/** The longest user agent a QR login code keeps for the session it makes, characters. */
export const USER_AGENT_MAX = 255;

/** Group mute options: noSpeakTimer value → duration in seconds (docs/product.md §9). */
export const MUTE_OPTIONS: Readonly<Record<1 | 2 | 3 | 4, number>> = {
  1: 10 * 60,
  2: 3600,
  3: 3 * 3600,
  4: 86_400,
};

/** Default app settings (docs/product.md §9). */
export const DEFAULT_APP_SETTING = {
  voiceStatus: true,
  vibrateStatus: false,
  circleAvatar: false,
} as const;

/** Toasts, ms (docs/product.md §8, §9). */
export const TOAST_MS = 1500;
export const TOAST_SERVER_MS = 2500;
/** After code -1, wait before going to login, ms (docs/product.md §8). */
export const RELOGIN_DELAY_MS = 1000;

/** Long press (docs/product.md §9). */
export const LONG_PRESS_MS = 350;
export const LONG_PRESS_TOLERANCE_PX = 10;

/** Tab bar (docs/product.md §9). */
export const TAB_BAR = {
  height: 50,
  iconWidth: 24,
  fontSize: 10,
  color: '#333',
  selectedColor: '#1AAD19',
  pageBackground: '#F8F8F8',
} as const;

/** Layout (docs/product.md §9). */
export const BASE_WIDTH = 375;
export const MAX_SCALE_WIDTH = 960;

/** Lazy page loading (docs/product.md §9). */
export const LAZY_DELAY_MS = 200;
export const LAZY_TIMEOUT_MS = 60_000;

/** Location picker (docs/product.md §9). */
export const LOCATION = {
  pageSize: 20,
  nearbyRadiusM: 5000,
  searchDebounceMs: 1000,
  refreshMs: 30_000,
  minZoom: 5,
  maxZoom: 18,
  defaultZoom: 16,
} as const;

/** Rich-text editor (docs/product.md §9). */
export const EDITOR = {
  historyDelayMs: 1000,
  historyMaxSteps: 100,
  maxIndent: 8,
  linkProtocols: ['http', 'https', 'mailto', 'tel'] as const,
} as const;

/** Date picker range, years before and after now (docs/product.md §5). */
export const DATE_PICKER_YEARS = 150;

/** Paging (docs/protocol.md §1). */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

/** Verification codes (docs/protocol.md §3 sendCode). */
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 300_000;
export const CODE_RESEND_MS = 60_000;
export const CODE_MAX_TRIES = 5;

/** Two-step sign-in (docs/protocol.md §3 loginTwoStep): how long a ticket waits for its second step, ms. */
export const LOGIN_TICKET_TTL_MS = 5 * 60_000;
/** Wrong codes a ticket takes before it is gone (each also counts towards the login lockout). */
export const LOGIN_TICKET_TRIES_MAX = 5;
/**
 * Second-step answers one user's tickets take within the login lockout's window, from any
 * addresses together, before the second step of that user is refused for the window's rest.
 */
export const TWO_STEP_TRIES_PER_USER_MAX = 10;
/** Recovery codes made at once, each good once. */
export const RECOVERY_CODE_COUNT = 10;

/** Session lifetime, ms: 30 days, renewed on use. */
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

/** Rate limits (docs/protocol.md §1). Operators may override each in the system configuration. */
export const RATE_LIMITS = {
  sendMessage: { burst: 60, perSecond: 10 },
  anyCall: { perMinute: 600 },
  loginFailures: { max: 5, windowS: 300 },
  sendCode: { intervalS: 60 },
  /** The administration calls (docs/protocol.md §8), per admin, beside every call's limit. */
  manage: { perMinute: 300 },
  /**
   * QR login codes (扫码登录) one address may ask for in a minute: a signed-out login page asks for one
   * on opening and every QR_LOGIN_VALID_MS while visible, so 60 covers an office of pages behind one NAT.
   */
  qrLogin: { perMinute: 60 },
} as const;

/** Avatar edge, px, after resizing. */
export const AVATAR_SIZE = 256;

/** Calls (docs/protocol.md §5): the caller gives up on an unanswered call after this long, ms (902). */
export const CALL_RING_TIMEOUT_MS = 40_000;
/** A call lock holds this long unless a signal or the server renews it, ms. */
export const CALL_LOCK_TTL_MS = 60_000;
/** A call whose peer has had no socket anywhere this long ends by itself, ms. */
export const CALL_PEER_GONE_MS = 30_000;
/** The longest session description a signal may carry, characters. */
export const CALL_SDP_MAX = 32_768;
/** The longest ICE candidate a signal may carry, characters. */
export const CALL_ICE_MAX = 2_048;

/** The most messages a Raingad client may name as read in one setMsgIsRead (it names those it holds). */
export const READ_NAMED_MAX = 1000;

/**
 * The largest request body a route takes unless its schema allows more, bytes. A route's own
 * limit is `bodyLimit` in the route table; the server refuses a larger body before reading it.
 */
export const BODY_LIMIT_DEFAULT = 64 * 1024;
/**
 * The most bytes one UTF-16 unit of text takes in a body as a client may send it: a character of
 * the Basic Multilingual Plane percent-encoded in a form (`%E5%AD%97`), more than JSON's `\uXXXX`.
 */
export const BODY_BYTES_PER_UNIT_MAX = 9;
/**
 * How deeply a request body may nest objects and arrays. The deepest any schema takes is
 * sendMessage's: `extends` nests at most 4 deep, 5 with the body around it. A deeper body is
 * refused by a scan of its bytes before it is parsed.
 */
export const BODY_DEPTH_MAX = 8;
/** The most pixels an uploaded image may have: larger ones are refused before they are decoded. */
export const IMAGE_PIXELS_MAX = 50_000_000;
/** How deeply a sent message's `extends` may nest objects and arrays (its kinds are one level deep). */
export const EXTENDS_DEPTH_MAX = 4;
/** The longest JSON text one field carries: a message sent with an upload, a console setting's value. */
export const JSON_FIELD_MAX = 20_000;

/** Keyword rules (敏感词, docs/product.md §8): the longest word or pattern, characters. */
export const KEYWORD_WORD_MAX = 64;
/** The most words and patterns one keyword list holds. */
export const KEYWORDS_PER_LIST_MAX = 20_000;
/** The longest text one import of words may carry (one word a line), characters. */
export const KEYWORD_IMPORT_TEXT_MAX = 400_000;
/** The longest name of a keyword list, characters. */
export const KEYWORD_LIST_NAME_MAX = 32;
/** The most keyword lists a server keeps. */
export const KEYWORD_LISTS_MAX = 50;
/** The most characters a pattern's `*` stands for: `赌*博` matches 赌博 and 赌一把大博 alike. */
export const KEYWORD_GAP_MAX = 5;
/** The longest text the console's test box takes, characters. */
export const KEYWORD_TEST_TEXT_MAX = 5_000;

/**
 * What a group's owner may choose as its messages' retention (消息保存时间), days; 0 keeps them as
 * long as the server does. The stricter of the group's and the server's (`chatInfo.messageDays`) applies.
 */
export const GROUP_RETENTION_DAYS = [0, 7, 30, 90, 365] as const;
/** The retention sweep's batch: messages deleted per short transaction, the sends waiting at most one. */
export const RETENTION_BATCH = 300;
