import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db';
import type { ReportsTable } from '../../db/schema';
import { unlessDuplicate } from '../../db/unique';

export type ReportRow = Selectable<ReportsTable>;

/** A report to file, with the files it keeps: the reporter's pictures and those of what it saw. */
export type NewReport = Omit<Insertable<ReportsTable>, 'id'> & {
  pictures: readonly number[];
  evidenceFiles: readonly number[];
};

/** A report with the names of those it concerns, as the queue lists it. */
export interface ReportListRow extends ReportRow {
  reporter_account: string | null;
  reporter_name: string | null;
  reporter_avatar: string | null;
  target_account: string | null;
  target_name: string | null;
  target_avatar: string | null;
  handler_name: string | null;
}

/** A file a report keeps, with where its bytes are. */
export interface ReportFileRow {
  file_id: number;
  attached: number;
  storage_key: string;
  thumb: string;
}

/** While a report is open, the one key it holds among the open reports: one per reporter and target. */
export function openKey(reporterId: number, kind: string, targetId: number): string {
  return `${reporterId}:${kind}:${targetId}`;
}

/** The only SQL on reports (投诉), the files they keep, and the server-wide mute they may end in. */
export class ReportRepo {
  constructor(private readonly db: Db) {}

  /**
   * Files a report with its files in one transaction, unless the reporter has one open on the same
   * target already (the same call again, or two at once); answers the report filed, this or the earlier.
   */
  file(report: NewReport): Promise<ReportRow> {
    const { pictures, evidenceFiles, ...values } = report;
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('reports')
        .values(values)
        .onConflict((oc) => oc.column('open_key').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted)
        return trx.selectFrom('reports').selectAll().where('open_key', '=', values.open_key!).executeTakeFirstOrThrow();
      const attached = new Set(pictures.filter((id) => id > 0));
      const files = [...new Set([...attached, ...evidenceFiles.filter((id) => id > 0)])];
      if (files.length)
        await trx
          .insertInto('report_files')
          .values(
            files.map((file_id) => ({ report_id: inserted.id, file_id, attached: attached.has(file_id) ? 1 : 0 })),
          )
          .execute();
      return inserted;
    });
  }

  byId(id: number): Promise<ReportRow | undefined> {
    return this.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private listed() {
    return this.db
      .selectFrom('reports as r')
      .leftJoin('users as ru', 'ru.id', 'r.reporter_id')
      .leftJoin('users as tu', 'tu.id', 'r.target_user_id')
      .leftJoin('users as hu', 'hu.id', 'r.handler_id')
      .selectAll('r')
      .select([
        'ru.account as reporter_account',
        'ru.realname as reporter_name',
        'ru.avatar as reporter_avatar',
        'tu.account as target_account',
        'tu.realname as target_name',
        'tu.avatar as target_avatar',
        'hu.realname as handler_name',
      ]);
  }

  /** A page of reports, newest first, of one status when given, and how many there are. */
  async page(
    status: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: ReportListRow[]; total: number }> {
    let count = this.db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n'));
    let rows = this.listed();
    if (status) {
      count = count.where('status', '=', status);
      rows = rows.where('r.status', '=', status);
    }
    const [total, page] = await Promise.all([
      count.executeTakeFirstOrThrow(),
      rows.orderBy('r.id', 'desc').limit(limit).offset(offset).execute(),
    ]);
    return { rows: page, total: Number(total.n) };
  }

  /** One report with the names of those it concerns. */
  listedById(id: number): Promise<ReportListRow | undefined> {
    return this.listed().where('r.id', '=', id).executeTakeFirst();
  }

  /** The files a report keeps, the reporter's pictures first. */
  files(reportId: number): Promise<ReportFileRow[]> {
    return this.db
      .selectFrom('report_files as rf')
      .innerJoin('files as f', 'f.id', 'rf.file_id')
      .select(['rf.file_id', 'rf.attached', 'f.storage_key', 'f.thumb'])
      .where('rf.report_id', '=', reportId)
      .orderBy('rf.attached', 'desc')
      .orderBy('rf.file_id', 'asc')
      .execute();
  }

  /** A new report opened by an admin: in review, with them as its handler. False when it was not new. */
  async review(id: number, handlerId: number): Promise<boolean> {
    const res = await this.db
      .updateTable('reports')
      .set({ status: 'review', handler_id: handlerId })
      .where('id', '=', id)
      .where('status', '=', 'new')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Closes a report with what was done, once: false when it was closed already (by another admin's
   * call that came first, on this server or another).
   */
  async close(id: number, action: string, handlerId: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('reports')
      .set({ status: 'closed', action, handler_id: handlerId, closed_time: now, open_key: null })
      .where('id', '=', id)
      .where('status', '<>', 'closed')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Opens again a report whose action failed after it was closed for it. When its reporter filed
   * the same report again meanwhile, that one keeps the open key and this one is reopened without.
   */
  async reopen(row: ReportRow): Promise<void> {
    const reopen = (key: string | null) =>
      this.db
        .updateTable('reports')
        .set({ status: 'review', action: '', closed_time: 0, open_key: key })
        .where('id', '=', row.id)
        .execute();
    const reopened = await unlessDuplicate(() => reopen(openKey(row.reporter_id, row.kind, row.target_id)));
    if (!reopened) await reopen(null);
  }

  /** The open report holding `key` (openKey), if any. */
  byOpenKey(key: string): Promise<ReportRow | undefined> {
    return this.db.selectFrom('reports').selectAll().where('open_key', '=', key).executeTakeFirst();
  }

  /** The reports about a user an admin closed with a warning, newest first. */
  warningsOf(userId: number, limit: number): Promise<ReportRow[]> {
    return this.db
      .selectFrom('reports')
      .selectAll()
      .where('target_user_id', '=', userId)
      .where('action', '=', 'warn')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The reports a user made, newest first. */
  byReporter(userId: number, limit: number): Promise<ReportRow[]> {
    return this.db
      .selectFrom('reports')
      .selectAll()
      .where('reporter_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Mutes a user across the server until `until` (ms); 0 lifts it. */
  async muteUser(userId: number, until: number): Promise<void> {
    await this.db.updateTable('users').set({ muted_until: until }).where('id', '=', userId).execute();
  }
}
