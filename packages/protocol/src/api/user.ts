import * as z from 'zod';
import { PAT_SUFFIX_MAX, STATUS_TEXT_MAX } from '../limits';
import { isStatusEmoji } from '../presence';
import { code, email, flag, motto, password, personText, qrToken, realname, userId } from './fields';

/** `/enterprise/im/getUserInfo`. */
export const GetUserInfoBody = z.object({ user_id: userId });

/** `/enterprise/im/userInfoqq`: preview the person whose QR code was scanned. */
export const UserQrBody = z.object({ token: qrToken });

/**
 * `/scan/u/<token>` and `/scan/g/<token>`: a Raingad client resolving a Sparrow code it scanned, as
 * the original server's scan paths answered it (docs/raingad.md §2.8): it posts the path of the
 * scanned URL with the path's last segment, the token, as `realToken`.
 */
export const ScanBody = z.object({ realToken: qrToken });

/** `/enterprise/im/updateUserInfo`: only the fields given change. */
export const UpdateUserInfoBody = z.object({
  /** Only when sysInfo.diyName allows. */
  realname: realname.optional(),
  /** Contact email; '' clears it. */
  email: z.union([z.literal(''), email]).optional(),
  motto: motto.optional(),
  /** 0 female, 1 male, 2 unknown. */
  sex: z.coerce.number().int().min(0).max(2).optional(),
  /** What a pat of me adds after my name, such as "的肩膀" (拍一拍后缀); '' clears it. */
  pat_suffix: personText(PAT_SUFFIX_MAX).optional(),
  /** 发送已读回执: 0 stops my reads counting in groups' receipts (and hides theirs from me), 1 again. */
  read_receipt: flag.optional(),
  /** Who sees my 最近在线: 0 everyone who may see my profile, 1 friends only (仅好友), 2 nobody (不显示). */
  last_seen_to: z.coerce.number().int().min(0).max(2).optional(),
  /** 发送"正在输入"状态: 0 stops telling others I am typing (and showing me theirs), 1 again. */
  typing: flag.optional(),
});

/**
 * `/enterprise/im/setStatus`: my status (状态), replacing the one before as a whole; an empty text and
 * emoji clear it. Told to my friends and my other devices (`userStatus`).
 */
export const SetStatusBody = z.object({
  /** What I am doing ("开会中"), at most STATUS_TEXT_MAX characters; '' for none. */
  text: personText(STATUS_TEXT_MAX).default(''),
  /** One emoji shown before the text, or ''. */
  emoji: z.string().trim().max(16).refine(isStatusEmoji, 'invalid').default(''),
  /**
   * When the status stops showing, ms; absent or 0 for until I change it. Otherwise it must lie
   * ahead, at most STATUS_UNTIL_MAX_MS.
   */
  until: z.coerce.number().int().nonnegative().optional(),
});

/**
 * `/enterprise/im/setting`: the Raingad web client's settings dialog saves its whole settings object.
 * It is kept on the user and given back in `userInfo.setting` at the next login (Sparrow's own client
 * keeps its app settings on the device, docs/product.md §3).
 */
export const UserSettingBody = z
  .object({
    theme: z.string().trim().max(32).optional(),
    isVoice: flag.optional(),
    /** 1: Enter sends, 2: Ctrl+Enter sends. */
    sendKey: z.coerce.number().int().min(1).max(2).optional(),
    avatarCricle: flag.optional(),
    hideMessageName: flag.optional(),
    hideMessageTime: flag.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'empty',
    path: ['theme'],
  });

/** `/enterprise/im/editPassword`: by the current password, or by a code from sendCode type 3. */
export const EditPasswordBody = z
  .object({
    password,
    originalPassword: z.string().min(1).max(64).optional(),
    code: code.optional(),
  })
  .refine((b) => b.originalPassword !== undefined || b.code !== undefined, {
    path: ['originalPassword'],
    message: 'required',
  });

/** `/enterprise/im/editAccount`: bind a new email or phone as the account. */
export const EditAccountBody = z.object({
  /** The new account: an email or a phone. */
  account: z.string().trim().min(1).max(128),
  /** Code sent to the current account (only checked when it is verified). */
  code: z.string().trim().max(6).default(''),
  /** Code sent to the new account (sendCode type 4). */
  newCode: code,
});

/** `/enterprise/im/searchUser`. */
export const SearchUserBody = z.object({ keywords: z.string().trim().min(1).max(128) });
