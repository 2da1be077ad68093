import type { Dialect } from '../../db/dialect';
import { Prepared } from '../../db/prepared';
import type { Db } from '../../db';
import { inGroupsOf, notHiddenBy, readableBy } from './readable-repo';
import { ChatType, type MessageRow } from './repo';

/** What a reader may see of one chat: messages after these ids, minus the hidden ones. */
export interface Visibility {
  userId: number;
  chatKey: string;
  /** Messages up to this id are not shown (cleared history, or joined without history). */
  floor: number;
}

/** What `sync` reads: the messages a reader may see after a cursor, oldest first, `take` of them. */
const messagesSince = (dialect: Dialect) =>
  new Prepared((db, userId: number, afterId: number, take: number) =>
    readableBy(db, dialect, userId, 'all')
      .where('m.id', '>', afterId)
      .selectAll('m')
      .orderBy('m.id', 'asc')
      .limit(take),
  );
const sinceIn = { sqlite: messagesSince('sqlite'), postgres: messagesSince('postgres') };

/** What a reader reads of the messages by the page: one chat's, everything since a cursor (`sync`), the files. */
export class HistoryRepo {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** A page of one chat as a reader sees it, newest `limit` before `lastId` (or after `afterId`), ascending. */
  async list(
    v: Visibility,
    opts: {
      limit: number;
      offset: number;
      lastId?: number | undefined;
      afterId?: number | undefined;
      types?: string[] | undefined;
      keywords?: string | undefined;
      mentioning?: number | undefined;
      fromUser?: number | undefined;
      /** Centred on this message: `limit` minus half before and with it, half after. */
      aroundId?: number | undefined;
      /** Sent from this time on (ms); without a cursor the page starts there, oldest first. */
      startTime?: number | undefined;
      /** Sent up to this time (ms), inclusive. */
      endTime?: number | undefined;
    },
  ): Promise<{ rows: MessageRow[]; total: number }> {
    let q = this.db
      .selectFrom('messages as m')
      .where('m.chat_key', '=', v.chatKey)
      .where('m.id', '>', v.floor)
      .where('m.is_deleted', '=', 0)
      .where(notHiddenBy(v.userId));
    if (opts.types?.length) q = q.where('m.type', 'in', opts.types).where('m.is_undo', '=', 0);
    if (opts.keywords) {
      const like = `%${opts.keywords.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q
        .where('m.type', '=', 'text')
        .where('m.is_undo', '=', 0)
        .where((eb) => eb('m.content', 'like', eb.val(like)));
    }
    if (opts.mentioning !== undefined) {
      q = q.where((eb) => eb.or([eb('m.at', 'like', `%,${opts.mentioning},%`), eb('m.at', 'like', '%,0,%')]));
    }
    if (opts.fromUser !== undefined) q = q.where('m.from_user', '=', opts.fromUser);
    if (opts.startTime !== undefined) q = q.where('m.create_time', '>=', opts.startTime);
    if (opts.endTime !== undefined) q = q.where('m.create_time', '<=', opts.endTime);
    const totalRow = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let page = q.selectAll('m');
    if (opts.aroundId !== undefined) {
      const newer = Math.floor(opts.limit / 2);
      const [before, after] = await Promise.all([
        page
          .where('m.id', '<=', opts.aroundId)
          .orderBy('m.id', 'desc')
          .limit(opts.limit - newer)
          .execute(),
        page.where('m.id', '>', opts.aroundId).orderBy('m.id', 'asc').limit(newer).execute(),
      ]);
      return { rows: [...before.reverse(), ...after], total: Number(totalRow.n) };
    }
    if (opts.startTime !== undefined && opts.afterId === undefined && !opts.lastId) {
      // The day's first message, found by time, bounds the page, so that the chat before it is not read.
      const first = await this.db
        .selectFrom('messages')
        .select('id')
        .where('chat_key', '=', v.chatKey)
        .where('create_time', '>=', opts.startTime)
        .orderBy('create_time', 'asc')
        .orderBy('id', 'asc')
        .limit(1)
        .executeTakeFirst();
      if (!first) return { rows: [], total: Number(totalRow.n) };
      page = page.where('m.id', '>=', first.id).orderBy('m.id', 'asc').limit(opts.limit).offset(opts.offset);
      return { rows: await page.execute(), total: Number(totalRow.n) };
    }
    if (opts.afterId !== undefined) {
      page = page.where('m.id', '>', opts.afterId).orderBy('m.id', 'asc').limit(opts.limit);
      return { rows: await page.execute(), total: Number(totalRow.n) };
    }
    if (opts.lastId !== undefined && opts.lastId > 0) page = page.where('m.id', '<', opts.lastId);
    const rows = await page
      .orderBy('m.id', 'desc')
      .limit(opts.limit)
      .offset(opts.lastId ? 0 : opts.offset)
      .execute();
    return { rows: rows.reverse(), total: Number(totalRow.n) };
  }

  /**
   * Everything addressed to me or sent by me after `afterId`, across chats, ascending: private
   * and file-transfer chats, and the groups I am in (from my join on when they hide history).
   */
  async since(userId: number, afterId: number, limit: number): Promise<{ rows: MessageRow[]; remaining: number }> {
    const rows = await sinceIn[this.dialect].all(this.db, userId, afterId, limit + 1);
    if (rows.length <= limit) return { rows, remaining: 0 };
    const total = await readableBy(this.db, this.dialect, userId, 'all')
      .where('m.id', '>', afterId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows: rows.slice(0, limit), remaining: Number(total.n) - limit };
  }

  /**
   * Messages carrying files that I sent, or that reached me (private to me, or in a group I am
   * in), or both, newest first, with each file's extension and size.
   */
  async files(
    userId: number,
    direction: 'sent' | 'received' | 'both',
    opts: { cate?: number | undefined; keywords?: string | undefined; limit: number; offset: number },
  ) {
    let q = this.db
      .selectFrom('messages as m')
      .innerJoin('files as f', 'f.id', 'm.file_id')
      .where('m.file_id', '>', 0)
      .where('m.is_deleted', '=', 0)
      .where('m.is_undo', '=', 0)
      .where('m.type', 'in', ['image', 'video', 'voice', 'file'])
      .where(notHiddenBy(userId));
    if (direction === 'sent') q = q.where('m.from_user', '=', userId);
    else {
      q = q.where((eb) => {
        const reached = eb.or([
          eb.and([eb('m.chat_type', '=', ChatType.Private), eb('m.to_id', '=', userId)]),
          eb.and([eb('m.chat_type', '=', ChatType.Group), inGroupsOf(userId)]),
        ]);
        return direction === 'both'
          ? eb.or([eb('m.from_user', '=', userId), reached])
          : eb.and([eb('m.from_user', '!=', userId), reached]);
      });
    }
    if (opts.cate === 2) q = q.where('m.type', '=', 'image');
    else if (opts.cate === 4) q = q.where('m.type', '=', 'video');
    else if (opts.cate === 3) q = q.where('m.type', '=', 'voice');
    else if (opts.cate !== undefined) q = q.where('m.type', '=', 'file').where('f.cate', '=', opts.cate);
    if (opts.keywords) {
      const like = `%${opts.keywords.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb('m.extends', 'like', eb.val(like)));
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll('m')
      .select(['f.ext as file_ext', 'f.size as file_size'])
      .orderBy('m.id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    return { rows, total: Number(total.n) };
  }
}
