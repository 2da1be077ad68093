import { GroupRoles } from './entities';

/**
 * Rules the server enforces and the client follows to offer only what will be allowed
 * (docs/product.md §6): each asked in one place, here.
 */

/**
 * Whether two people must be friends to chat privately or call: in an organisation (`runMode` 1)
 * everyone may reach everyone; in a community (`runMode` 2) only friends may.
 */
export const needsFriendship = (runMode: number): boolean => runMode !== 1;

/** What whether a group's read receipts (已读/未读) count and show is decided on. */
export interface ReceiptCase {
  /** `sysInfo.runMode`: an organisation (1) makes receipts mandatory, whatever a member chose. */
  runMode: number;
  /** The person's own 发送已读回执 (`userInfo.read_receipt`). */
  own: 0 | 1;
  /** The group's `setting.receipt`. */
  group: 0 | 1;
}

/**
 * Whether a person's reads count in a group's receipts, and (as in Telegram, the same rule) whether
 * they see the others': never in a group that turned receipts off; always in an organisation; else
 * as they chose.
 */
export function sharesReceipts(c: ReceiptCase): boolean {
  if (c.group === 0) return false;
  return c.runMode === 1 || c.own === 1;
}

/** What a withdrawal of a message is decided on. */
export interface WithdrawCase {
  /** The message is the withdrawer's own. */
  mine: boolean;
  /** It is in a group, where roles count. */
  inGroup: boolean;
  /** The withdrawer's role in that group (protocol `GroupRoles`). */
  myRole: number;
  /** The author's role in that group (a member when unknown). */
  authorRole: number;
  /** How long ago it was sent, ms. */
  age: number;
  /** `chatInfo.redoTime`, seconds. */
  redoTimeS: number;
}

/**
 * Who may withdraw a message: its sender within `redoTime`; in a group the owner any message and an
 * administrator a member's, and both their own at any time. `'tooLate'` is the sender's own past
 * the window; `'notYours'` anyone else's they may not touch.
 */
export function withdrawal(c: WithdrawCase): 'allowed' | 'tooLate' | 'notYours' {
  const runs = c.inGroup && (c.myRole === GroupRoles.Owner || c.myRole === GroupRoles.Admin);
  if (c.mine) return runs || c.age <= c.redoTimeS * 1000 ? 'allowed' : 'tooLate';
  if (!c.inGroup) return 'notYours';
  if (c.myRole === GroupRoles.Owner) return 'allowed';
  if (c.myRole === GroupRoles.Admin && c.authorRole === GroupRoles.Member) return 'allowed';
  return 'notYours';
}
