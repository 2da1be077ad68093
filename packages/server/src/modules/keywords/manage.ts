import {
  KEYWORD_LISTS_MAX,
  KEYWORD_WORD_MAX,
  KEYWORDS_PER_LIST_MAX,
  type KeywordAddResult,
  type KeywordList,
  type KeywordTestResult,
  type KeywordWord,
  type RouteInput,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { type Actor, type AuditLog, COMMAND_LINE } from '../admin';
import { keywordProblem, type KeywordAction } from './matcher';
import type { KeywordListRow, KeywordRepo } from './repo';
import type { KeywordScreen } from './screen';

const DEFAULT_LIMIT = 50;
/** Words an audit row of an import names; the count says the rest. */
const AUDIT_WORDS = 20;

function toList(row: KeywordListRow): KeywordList {
  return {
    id: row.id,
    name: row.name,
    action: row.action as KeywordAction,
    enabled: row.enabled,
    word_count: row.word_count,
    create_time: row.create_time,
  };
}

/** The words of an import, one a line: blank lines skipped, each word once, in the order given. */
export function wordsOf(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((w) => w.trim()))].filter((w) => w !== '');
}

/**
 * Keyword lists as the console and `npm run admin keyword …` manage them: every change is audited
 * and builds the matcher again, here at once and on the other nodes at their next look.
 */
export class KeywordAdmin {
  constructor(
    private readonly repo: KeywordRepo,
    private readonly screen: Pick<KeywordScreen, 'changed' | 'screen'>,
    private readonly audit: AuditLog,
    private readonly now: () => number,
  ) {}

  async lists(): Promise<KeywordList[]> {
    return (await this.repo.lists()).map(toList);
  }

  private async list(id: number, field = 'id'): Promise<KeywordListRow> {
    const list = await this.repo.list(id);
    if (!list) throw new AppError('NotFound', {}, { fields: [field] });
    return list;
  }

  async createList(body: RouteInput<'manageKeywordListCreate'>, actor: Actor = COMMAND_LINE): Promise<KeywordList> {
    const row = { name: body.name, action: body.action, enabled: 1, create_time: this.now() };
    const id = await this.repo.createList(row, KEYWORD_LISTS_MAX);
    if (id === undefined)
      throw new AppError('KeywordListFull', { max: KEYWORDS_PER_LIST_MAX, lists: KEYWORD_LISTS_MAX });
    await this.audit.append(actor, 'keywordListCreate', `keywords:${id}`, { name: body.name, action: body.action });
    await this.screen.changed();
    return toList({ id, ...row, word_count: 0 });
  }

  async updateList(body: RouteInput<'manageKeywordListUpdate'>, actor: Actor = COMMAND_LINE): Promise<KeywordList> {
    const list = await this.list(body.id);
    const patch = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.action !== undefined && { action: body.action }),
      ...(body.enabled !== undefined && { enabled: body.enabled }),
    };
    if (Object.keys(patch).length === 0) return toList(list);
    await this.repo.updateList(list.id, patch);
    const from = { name: list.name, action: list.action, enabled: list.enabled };
    await this.audit.append(actor, 'keywordListUpdate', `keywords:${list.id}`, { from, to: { ...from, ...patch } });
    await this.screen.changed();
    return toList({ ...list, ...patch });
  }

  async deleteList(id: number, actor: Actor = COMMAND_LINE): Promise<void> {
    const list = await this.list(id);
    if (!(await this.repo.deleteList(list.id))) throw new AppError('NotFound', {}, { fields: ['id'] });
    await this.audit.append(actor, 'keywordListDel', `keywords:${list.id}`, {
      name: list.name,
      words: list.word_count,
    });
    await this.screen.changed();
  }

  async words(body: RouteInput<'manageKeywordWords'>): Promise<{ items: KeywordWord[]; total: number }> {
    const list = await this.list(body.list_id, 'list_id');
    const limit = body.limit ?? DEFAULT_LIMIT;
    const { rows, total } = await this.repo.words(list.id, body.keywords ?? '', ((body.page ?? 1) - 1) * limit, limit);
    return { items: rows, total };
  }

  /**
   * Adds the words of `text` (one a line) to a list. The bound is checked before anything is
   * written: more than KEYWORDS_PER_LIST_MAX lines, or a list that would hold more, is refused whole.
   */
  async addWords(body: RouteInput<'manageKeywordAdd'>, actor: Actor = COMMAND_LINE): Promise<KeywordAddResult> {
    const list = await this.list(body.list_id, 'list_id');
    const given = wordsOf(body.words);
    const full = () => new AppError('KeywordListFull', { max: KEYWORDS_PER_LIST_MAX, lists: KEYWORD_LISTS_MAX });
    if (given.length > KEYWORDS_PER_LIST_MAX) throw full();
    const invalid = given.filter((w) => [...w].length > KEYWORD_WORD_MAX || keywordProblem(w) !== null);
    const bad = new Set(invalid);
    const valid = given.filter((w) => !bad.has(w));
    const fresh = await this.repo.addWords(list.id, valid, KEYWORDS_PER_LIST_MAX);
    if (!fresh) throw full();
    if (fresh.length > 0) {
      await this.audit.append(actor, 'keywordAdd', `keywords:${list.id}`, {
        name: list.name,
        count: fresh.length,
        words: fresh.slice(0, AUDIT_WORDS),
      });
      await this.screen.changed();
    }
    return { added: fresh.length, existing: valid.length - fresh.length, invalid };
  }

  /** The command line's import: into the list of that name, made (as `action`) when there is none. */
  async importWords(name: string, action: KeywordAction, text: string, actor: Actor = COMMAND_LINE) {
    const found = (await this.repo.lists()).find((l) => l.name === name);
    const list = found ? toList(found) : await this.createList({ name, action }, actor);
    return { list, ...(await this.addWords({ list_id: list.id, words: text }, actor)) };
  }

  async removeWords(body: RouteInput<'manageKeywordRemove'>, actor: Actor = COMMAND_LINE): Promise<void> {
    const list = await this.list(body.list_id, 'list_id');
    const removed = await this.repo.removeWords(list.id, body.ids);
    if (removed === 0) return;
    await this.audit.append(actor, 'keywordRemove', `keywords:${list.id}`, { name: list.name, count: removed });
    await this.screen.changed();
  }

  /** What the lists make of a text, as a send would meet it; nothing is stored. */
  test(text: string): KeywordTestResult {
    return this.screen.screen(text);
  }
}
