/** What a QR code names (docs/protocol.md §6): a person or a group. */
export type QrKind = 'user' | 'group';

/** The in-app page a scanned code opens (docs/product.md §2): 用户分享 for a person, 群分享 for a group. */
export const QR_LANDING = {
  user: '/pages/index/myqrcode',
  group: '/pages/index/qqrcode',
} as const satisfies Record<QrKind, string>;

/** A person's code resolved for a Raingad client (`/scan/u/…`): it opens their profile by `id`. */
export interface ScannedUser extends UserPreview {
  id: number;
  action: 'userInfo';
}

/** A person as their scanned code shows them (userInfoqq). */
export interface UserPreview {
  user_id: number;
  /** My remark for them when we are friends, else their name. */
  displayName: string;
  avatar: string;
  motto: string;
  is_friend: 0 | 1;
}
