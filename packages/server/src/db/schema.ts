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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verify_codes: VerifyCodesTable;
  config: ConfigTable;
  invite_codes: InviteCodesTable;
  files: FilesTable;
  friends: FriendsTable;
  friend_requests: FriendRequestsTable;
}
