import {
  FORWARD_RECORD_BYTES_MAX,
  FORWARD_RECORD_DEPTH_MAX,
  FORWARD_RECORD_LINES,
  FORWARD_RECORD_SEARCH_MAX,
  MessageFactsSchema,
  PICTURES,
  negotiateLocale,
  recordTitle,
  recordTitleOf,
  recordLines,
  PREVIEW_MAX,
  type RecordHead,
  translate,
  type ForwardRecord,
  type ForwardRecordItem,
  type Locale,
  type MessageType,
  type RecordSource,
  type RouteInput,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { parseJson, plainText } from '../../lib/text';
import type { Repos } from '../../repos';
import type { Access } from '../access';
import type { Session } from '../auth';
import type { UserRow } from '../user';
import type { ForwardRecordRow } from './record-repo';
import { ChatType, type MessageRow } from './repo';
import { copyOf, forwardable, type ForwardDraft, type SendPipeline } from './send/pipeline';

/** What forwarding several messages reads and writes. */
export interface ForwardParts {
  repos: Pick<Repos, 'forwardRecords' | 'users' | 'friends'>;
  access: Pick<Access, 'message'>;
  now: () => number;
}

/** A message as a record keeps it: a snapshot taken when it was forwarded. */
interface StoredItem {
  msg_id: number;
  type: string;
  content: string;
  extends: Record<string, unknown>;
  sendTime: number;
  fromUser: { id: number; realname: string; avatar: string };
}

/**
 * Multi-select forwarding (逐条转发, 合并转发) and reading merged records. Both forwards take
 * SendPipeline's forward path: the targets resolved and authorized as forwardMessage does, then
 * each draft stored and pushed in its order.
 */
export class ForwardService {
  constructor(
    private readonly ctx: ForwardParts,
    private readonly pipeline: SendPipeline,
  ) {}

  /**
   * Forwards messages I can see now, all or none: one I cannot see refuses them all as a missing
   * message, before any target is asked. `each` sends them one by one in the order of msg_id;
   * `merge` sends one record of them; a note follows as a text.
   */
  async forwardMessages(session: Session, body: RouteInput<'forwardMessages'>): Promise<void> {
    const ids = [...new Set(body.msg_ids)].sort((a, b) => a - b);
    const rows: MessageRow[] = [];
    for (const id of ids) {
      const { row } = await this.ctx.access.message(session, id);
      if (!forwardable(row)) throw new AppError('NotAllowedTarget');
      rows.push(row);
    }
    const chats = await this.pipeline.forwardTargets(session, body.user_ids);
    const drafts = body.mode === 'each' ? rows.map(copyOf) : [await this.record(session, rows)];
    const note = plainText(body.note ?? '');
    if (note.trim()) drafts.push({ type: 'text', content: note, extends: {}, at: [], pid: 0, fileId: 0 });
    await this.pipeline.forwardTo(session, chats, drafts);
  }

  /** Stores a snapshot of `rows` and answers the `record` message that carries it. */
  private async record(session: Session, rows: readonly MessageRow[]): Promise<ForwardDraft> {
    const senders = await this.ctx.repos.users.byIds(rows.map((r) => r.from_user));
    const items: StoredItem[] = rows.map((r) => {
      // As a forward copies it: a poll or a chain is kept as the text of what it held.
      const copy = copyOf(r);
      const sender = senders.get(r.from_user);
      return {
        msg_id: r.id,
        type: copy.type,
        content: copy.content,
        extends: copy.extends,
        sendTime: r.create_time,
        fromUser: { id: r.from_user, realname: sender?.realname ?? '', avatar: sender?.avatar ?? PICTURES.person },
      };
    });
    const body = JSON.stringify(items);
    if (Buffer.byteLength(body) > FORWARD_RECORD_BYTES_MAX)
      throw new AppError('Validation', {}, { fields: ['msg_ids'] });
    const fileIds = rows.map((r) => r.file_id).filter((id) => id > 0);
    const recordId = await this.ctx.repos.forwardRecords.create(session.userId, body, fileIds, this.ctx.now());
    const locale = negotiateLocale(session.user.language || undefined);
    const source = await this.sourceOf(session.user, rows);
    const title = recordTitle(source, (key, params) => translate(locale, key, params));
    const heads: RecordHead[] = items.slice(0, FORWARD_RECORD_LINES).map((i) => ({
      name: i.fromUser.realname,
      type: i.type,
      content: i.type === 'text' ? i.content.slice(0, PREVIEW_MAX * 2) : '',
      extends: headFacts(i.extends),
    }));
    const lines = recordLines(heads, [], (key, params) => translate(locale, key, params));
    return {
      type: 'record',
      content: translate(locale, 'record.content', { title }),
      extends: { record_id: recordId, title, lines, heads, count: items.length, ...source },
      at: [],
      pid: 0,
      fileId: 0,
    };
  }

  /** What a record's title names: the chat the messages came from, when they all came from one. */
  private async sourceOf(me: UserRow, rows: readonly MessageRow[]): Promise<RecordSource> {
    const first = rows[0]!;
    if (rows.some((r) => r.chat_key !== first.chat_key)) return { source: 'mixed', names: [] };
    if (first.chat_type === ChatType.Group) return { source: 'group', names: [] };
    if (first.chat_type === ChatType.Self) return { source: 'self', names: [me.realname] };
    const peerId = first.from_user === me.id ? first.to_id : first.from_user;
    const peer = await this.ctx.repos.users.byId(peerId);
    return { source: 'private', names: [me.realname, peer?.realname ?? ''] };
  }

  /**
   * The messages of a record I can see: the one a `record` message I can see carries, or one held
   * inside it (a forwarded record), found through its items; anything else is a missing message.
   */
  async read(session: Session, body: RouteInput<'forwardRecord'>): Promise<ForwardRecord> {
    const { row } = await this.ctx.access.message(session, body.msg_id);
    const rootExt = parseJson(row.extends);
    const rootId = row.type === 'record' ? Number(rootExt.record_id) : 0;
    const found = rootId > 0 ? await this.reachable(rootId, rootExt, body.record_id ?? rootId) : undefined;
    if (!found) throw new AppError('MessageNotFound');
    const items = parseItems(found.record.body);
    const reader = session.user;
    const locale = negotiateLocale(reader.language || undefined);
    const remarks = (
      await this.ctx.repos.friends.remarks(
        [reader.id],
        items.map((i) => i.fromUser.id),
      )
    ).get(reader.id);
    return {
      record_id: found.record.id,
      title: wordedTitle(found.facts, locale),
      items: items.map((i) => presentItem(i, reader.id, locale, remarks?.get(i.fromUser.id))),
    };
  }

  /**
   * The record `wanted` with the facts of the message or item that carries it, when it is
   * `rootId` or held by the records `rootId` holds, FORWARD_RECORD_DEPTH_MAX deep and
   * FORWARD_RECORD_SEARCH_MAX records read at most.
   */
  private async reachable(
    rootId: number,
    rootFacts: Record<string, unknown>,
    wanted: number,
  ): Promise<{ record: ForwardRecordRow; facts: Record<string, unknown> } | undefined> {
    let level = new Map([[rootId, rootFacts]]);
    const seen = new Set<number>();
    for (let depth = 0; depth <= FORWARD_RECORD_DEPTH_MAX && level.size; depth++) {
      const next = new Map<number, Record<string, unknown>>();
      for (const [id, facts] of level) {
        if (seen.has(id)) continue;
        if (seen.size >= FORWARD_RECORD_SEARCH_MAX) return undefined;
        seen.add(id);
        const record = await this.ctx.repos.forwardRecords.byId(id);
        if (!record) continue;
        if (id === wanted) return { record, facts };
        for (const item of parseItems(record.body)) {
          const nested = Number(item.extends.record_id);
          if (item.type === 'record' && Number.isInteger(nested) && nested > 0) next.set(nested, item.extends);
        }
      }
      level = next;
    }
    return undefined;
  }
}

/** A record's stored items; an item that is not one is left out. */
function parseItems(body: string): StoredItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (i): i is StoredItem =>
      typeof i === 'object' && i !== null && typeof (i as StoredItem).msg_id === 'number' && 'fromUser' in i,
  );
}

/** What a card line's preview reads of a message's facts: the names of a file, a place, a card. */
function headFacts(ext: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'displayName'] as const) if (typeof ext[key] === 'string') out[key] = ext[key];
  return out;
}

/** A record's title in the reader's words. */
function wordedTitle(facts: Record<string, unknown>, locale: Locale): string {
  return recordTitleOf(facts, (key, params) => translate(locale, key, params));
}

/** One item as its reader sees it: the sender by the reader's remark, a nested record's title in the reader's words. */
function presentItem(
  item: StoredItem,
  readerId: number,
  locale: Locale,
  remark: string | undefined,
): ForwardRecordItem {
  const ext = { ...item.extends };
  let content = item.content;
  if (item.type === 'record') {
    ext.title = wordedTitle(ext, locale);
    ext.lines = recordLines(ext.heads, Array.isArray(ext.lines) ? (ext.lines as string[]) : [], (key, params) =>
      translate(locale, key, params),
    );
    delete ext.heads;
    content = translate(locale, 'record.content', { title: String(ext.title) });
  }
  const facts = MessageFactsSchema.safeParse({ type: item.type, extends: ext });
  const { type, extends: shown } = facts.success ? facts.data : { type: 'text' as MessageType, extends: {} };
  const out: ForwardRecordItem = {
    msg_id: item.msg_id,
    type,
    content,
    extends: shown,
    sendTime: item.sendTime,
    fromUser: {
      id: item.fromUser.id,
      user_id: item.fromUser.id,
      realname: item.fromUser.realname,
      displayName: remark || item.fromUser.realname,
      avatar: item.fromUser.avatar,
    },
    mine: item.fromUser.id === readerId ? 1 : 0,
  };
  if (facts.success && facts.data.type === 'file') {
    out.fileName = facts.data.extends.name;
    out.fileSize = facts.data.extends.size;
    out.download = `${content}?name=${encodeURIComponent(facts.data.extends.name)}`;
  }
  if (facts.success && facts.data.type === 'image') out.preview = facts.data.extends.thumb;
  return out;
}
