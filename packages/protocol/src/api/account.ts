import * as z from 'zod';
import { PASSWORD_MAX } from '../limits';
import { rowIdOrZero } from './fields';

/**
 * `/enterprise/account/delete` (注销账号): deletes the caller's own account, confirmed with its
 * password (a wrong one is answered `OriginalPasswordWrong` and counted as a failed login). Every
 * session ends and every socket of the account is closed; friends, moments, favourites, push
 * subscriptions, block lists and group memberships go (an owned group passes to an administrator
 * or the earliest member, or is disbanded when no one is left). Messages sent stay for others,
 * shown as from 已注销用户, or are removed for everyone (`account.removeMessages`). The account name
 * stays taken for `account.nameHoldDays` days. Sent again after it succeeded, the session is gone.
 */
export const AccountDeleteBody = z.object({
  /** The account's current password. */
  password: z.string().min(1).max(PASSWORD_MAX),
});

/**
 * `/enterprise/account/exportRequest` (下载我的数据): starts preparing an archive of my data. While
 * one is queued or running, answers that one instead of starting another.
 */
export const ExportRequestBody = z.object({});

/** `/enterprise/account/exportStatus`: my newest export, or null when I never asked for one. */
export const ExportStatusBody = z.object({
  /** One export of mine by id; 0 or absent: the newest. */
  id: rowIdOrZero.optional(),
});

/** Where an export stands: `expired` once its archive was deleted, `failed` when it could not be built. */
export const EXPORT_STATES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** One export of my data, as `exportRequest`, `exportStatus` and the `dataExport` push tell it. */
export interface DataExport {
  id: number;
  state: ExportState;
  /** 0–100. */
  progress: number;
  /** The archive's size in bytes, once done; 0 before. */
  size: number;
  /** When it was asked for, ms. */
  create_time: number;
  /** When the archive is deleted, ms; 0 until done. */
  expire_time: number;
  /** The archive's address (an authenticated GET, `EXPORT_DOWNLOAD_PATH`), once done; '' otherwise. */
  url: string;
}

/**
 * The archive of a finished export: `GET <path>?id=<export id>` with the session's
 * `Authorization` header, answered as a zip (`application/zip`). Another user's export, one not
 * done or expired is answered 404 alike.
 */
export const EXPORT_DOWNLOAD_PATH = '/enterprise/account/exportDownload';
