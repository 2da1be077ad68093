import { z } from 'zod';

/** Per-user app settings (spec §3 App setting, §9 defaults). */
export const AppSettingSchema = z.object({
  /** Play a sound on incoming messages. */
  voiceStatus: z.boolean(),
  /** Vibrate on incoming messages. */
  vibrateStatus: z.boolean(),
  /** Show avatars as circles. */
  circleAvatar: z.boolean(),
});
export type AppSetting = z.infer<typeof AppSettingSchema>;

/** The signed-in user (api.md §2 userInfo). Never carries a password hash or salt. */
export interface UserInfo {
  user_id: number;
  id: number;
  account: string;
  realname: string;
  displayName: string;
  avatar: string;
  email: string;
  phone: string;
  /** 0 female, 1 male, 2 unknown. */
  sex: 0 | 1 | 2;
  motto: string;
  /** 1 when the account is a verified email or phone. */
  is_auth: 0 | 1;
  /** 0 user, 1 system administrator. */
  role: 0 | 1;
  setting: AppSetting & { language: string };
  /** My QR code's URL (api.md §6), signed and valid until `qrExpire`; fresh on every login and checkuser. */
  qrUrl: string;
  /** When `qrUrl` stops working, ms. */
  qrExpire: number;
}

/** Public profile of another user (getUserInfo). */
export interface UserProfile {
  user_id: number;
  id: number;
  /** Masked (first 3 + `******` + last 2) unless it is me. */
  account: string;
  realname: string;
  displayName: string;
  avatar: string;
  sex: 0 | 1 | 2;
  motto: string;
  /** My friendship record with this user, or null. */
  friend: { friend_id: number; nickname: string } | null;
  is_friend: 0 | 1;
}

/** System configuration (api.md §2 globalConfig). */
export interface GlobalConfig {
  sysInfo: {
    name: string;
    logo: string;
    /** 1: users may change their name. */
    diyName: 0 | 1;
    /** 0 any account, 1 phone, 2 email, 3 phone or email. */
    regauth: 0 | 1 | 2 | 3;
    /** 1 open, 2 invite code. */
    regtype: 1 | 2;
    /** 1 everyone in the organisation is a contact, 2 friends only. */
    runMode: 1 | 2;
    ipregion: 0 | 1;
    multipleLogin: 0 | 1;
    /** Seconds between registrations from one IP; 0 = no limit. */
    registerInterval: number;
  };
  chatInfo: {
    online: 0 | 1;
    webrtc: 0 | 1;
    dbDelMsg: 0 | 1;
    /** Withdraw window, s. */
    redoTime: number;
    groupChat: 0 | 1;
    simpleChat: 0 | 1;
    /** 0 = no limit. */
    groupUserMax: number;
    /** Minimum seconds between two sends of one user; 0 = none. */
    sendInterval: number;
    /** ICE servers; credentials only for a signed-in caller. */
    stun: Array<{ urls: string | string[]; username?: string; credential?: string }>;
  };
  fileUpload: {
    /** MB. */
    size: number;
    fileExt: string[];
    /** MB. */
    emojiSize: number;
  };
  /** The location picker's map services (Leaflet); it works without them, by name and manual pin. */
  map: {
    /** Tile URL template with {z}/{x}/{y}. */
    tileUrl: string;
    attribution: string;
    /** A Nominatim-compatible place search (`?q=…&format=json`). */
    searchUrl: string;
  };
  compass: {
    status: 0 | 1;
    mode: 1 | 2;
    list: Array<{ icon: string; name: string; type: 1 | 2; url: string }>;
  };
  demon_mode: 0 | 1;
}

/** Answer of /common/pub/checkVersion. */
export interface VersionInfo {
  versionName: string;
  versionCode: number;
  updateType: 'forcibly' | 'solicit' | 'silent';
  versionInfo: string;
  /** '' when the caller's release is current. */
  downloadUrl: string;
}

/** Answer of login. */
export interface LoginResult {
  /** `bearer <token>`: send it back exactly as the Authorization header. */
  authToken: string;
  sessionId: number;
  userInfo: UserInfo;
}

/** Answer of uploads that store a file without sending a message. */
export interface UploadResult {
  file_id: number;
  src: string;
  name: string;
  size: number;
  ext: string;
  /** 1 doc, 2 image, 3 audio, 4 video, 9 other. */
  cate: 1 | 2 | 3 | 4 | 9;
  mime: string;
}

/** The id of a contact: a user id, `group-<n>`, or a pseudo-contact. */
export type ContactId = number | `group-${number}` | 'system' | 'admin_notice' | -1;

/** A conversation or contact-list row (api.md §2 Contact, spec §3). */
export interface Contact {
  id: ContactId;
  displayName: string;
  avatar: string;
  /** Preview of the last message, already in the reader's language. */
  lastContent: string;
  /** ms. */
  lastSendTime: number;
  /** Type of the last message. */
  type: string;
  /** 0 user, 1 group, 2 system or announcement, 3 my file transfer. */
  is_group: 0 | 1 | 2 | 3;
  unread: number;
  is_top: 0 | 1;
  /** 1 notify, 0 muted. */
  is_notice: 0 | 1;
  /** Mentions of me not yet read. */
  is_at: number;
  is_online: 0 | 1;
  /** Letter group A–Z, or #. */
  index: string;
  notice: string;
  setting: Record<string, unknown>;
  /** Users only. */
  user_id?: number;
  realname?: string;
  /** Masked unless a friend. */
  account?: string;
  motto?: string;
  /** My friendship row, when we are friends. */
  friend_id?: number;
  /** Groups only. */
  group_id?: string;
  owner_id?: number;
  role?: 1 | 2 | 3;
  member_count?: number;
}

/**
 * A contact row as it starts: no last message, nothing unread or mentioned, not pinned,
 * notifications on, offline, under `#`; `fields` name the contact and whatever else it has.
 */
export function newContact(fields: Pick<Contact, 'id' | 'displayName' | 'is_group'> & Partial<Contact>): Contact {
  const { id, displayName, ...rest } = fields;
  return {
    id,
    displayName,
    avatar: '',
    lastContent: '',
    lastSendTime: 0,
    type: '',
    unread: 0,
    is_top: 0,
    is_notice: 1,
    is_at: 0,
    is_online: 0,
    index: '#',
    notice: '',
    setting: {},
    ...rest,
  };
}

/** The sender as the server knows it (never the client's copy). */
export interface FromUser {
  id: number | 'system';
  user_id: number | 'system';
  realname: string;
  displayName: string;
  avatar: string;
}

/** A message (api.md §2 Message, spec §3). */
export interface Message {
  /** Client-made UUID: the idempotency key. */
  id: string;
  /** Server-assigned, grows with time: ordering and paging cursor. */
  msg_id: number;
  type: 'text' | 'event' | 'location' | 'contact' | 'image' | 'emoji' | 'voice' | 'video' | 'file' | 'webrtc';
  content: string;
  /** ms. */
  sendTime: number;
  toContactId: ContactId;
  toUser?: ContactId;
  is_group: 0 | 1 | 2 | 3;
  status: 'succeed';
  is_read: 0 | 1;
  /** Mentioned user ids; 0 = everyone. */
  at: number[];
  /** Quoted msg_id, or 0. */
  pid: number;
  fromUser: FromUser;
  role?: number;
  extends: Record<string, unknown>;
  fileName?: string;
  fileSize?: number;
  preview?: string;
  download?: string;
  /** On pushes: the conversation as the receiver should show it. */
  contactInfo?: Contact;
}

/** A friend request (api.md §3 /enterprise/friend/index). */
export interface FriendRequest {
  friend_id: number;
  create_user_info: { user_id: number; realname: string; displayName: string; avatar: string };
  user_id_info: { user_id: number; realname: string; displayName: string; avatar: string };
  remark: string;
  /** 2 pending, 1 accepted, 0 refused. */
  status: 0 | 1 | 2;
  create_time: number;
}

/** Group settings (api.md §2). */
export interface GroupSetting {
  /** Members may invite others; QR joining allowed. */
  invite: 0 | 1;
  /** New members see earlier history. */
  history: 0 | 1;
  /** Members may view each other's profiles and add each other. */
  profile: 0 | 1;
  /** 0 all speak, 1 only owner and admins, 2 only owner. */
  nospeak: 0 | 1 | 2;
  manage: 0 | 1;
}

/** A group's own record, for members (groupInfo). */
export interface GroupInfo {
  group_id: string;
  id: string;
  displayName: string;
  name: string;
  avatar: string;
  owner_id: number;
  owner: { user_id: number; realname: string; avatar: string } | null;
  notice: string;
  setting: GroupSetting;
  member_count: number;
  /** My role: 1 owner, 2 admin, 3 member; 0 not a member. */
  isJoin: 0 | 1 | 2 | 3;
  /** My nickname in the group. */
  nickname: string;
  /** When my mute ends, ms; 0 when not muted. */
  no_speak_until: number;
  create_time: number;
  qrUrl: string;
  qrExpire: number;
}

/** A member of a group (groupUserList). */
export interface GroupMember {
  user_id: number;
  /** 1 owner, 2 admin, 3 member. */
  role: 1 | 2 | 3;
  nickname: string;
  /** ms; 0 when not muted. */
  no_speak_until: number;
  join_time: number;
  userInfo: { user_id: number; realname: string; displayName: string; avatar: string; account: string };
}

/** A system announcement (getAdminNotice). */
export interface AdminNotice {
  id: number;
  title: string;
  notice: string;
  create_time: number;
}

/** A group as a scanned QR code shows it (groupInfoqq). */
export interface GroupPreview {
  group_id: string;
  displayName: string;
  avatar: string;
  member_count: number;
  /** My role when I am already in it, else 0. */
  isJoin: 0 | 1 | 2 | 3;
}

/** A sticker of my collection. */
export interface EmojiItem {
  id: number;
  src: string;
  file_id: number;
  name: string;
}

/** A file I sent or received (file management). */
export interface FileItem {
  msg_id: number;
  file_id: number;
  name: string;
  size: number;
  ext: string;
  /** 1 doc, 2 image, 3 audio, 4 video, 9 other. */
  cate: 1 | 2 | 3 | 4 | 9;
  src: string;
  create_time: number;
  fromUser: FromUser;
  toContactId: ContactId;
}
