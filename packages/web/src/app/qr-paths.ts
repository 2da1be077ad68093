import { QR_LANDING } from '@sparrow/protocol';
import { withQuery } from './paths';

/** The QR pages of the product's route table (§2). */
export const qrPaths = {
  /** 我的二维码 */
  mycode: '/pages/index/mycode',
  /** 用户分享: where a person's code lands. */
  myqrcode: QR_LANDING.user,
  /** 群二维码 */
  qrcode: '/pages/index/qrcode',
  /** 群分享: where a group's code lands. */
  qqrcode: QR_LANDING.group,
  /** 扫一扫 */
  scan: '/pages/index/scan',
} as const;

/** The code page of a group (`group-3`). */
export const groupCodePath = (groupId: string) => withQuery(qrPaths.qrcode, { id: groupId });
