import * as z from 'zod';
import { KEYWORD_IMPORT_TEXT_MAX, KEYWORD_LIST_NAME_MAX, KEYWORD_TEST_TEXT_MAX, KEYWORDS_MAX } from '../limits';
import { rowId } from './fields';

/**
 * Keyword rules (敏感词, docs/protocol.md §8): lists of words and patterns with an action each, and the
 * queue of what review lists held back. Console calls only (`/manage/*`).
 */

/** What a list does to a text holding one of its words: refuse it, star the words, or hold it for review. */
export const KeywordActionSchema = z.enum(['refuse', 'replace', 'review']);
export type KeywordActionName = z.infer<typeof KeywordActionSchema>;

const listName = z.string().trim().min(1).max(KEYWORD_LIST_NAME_MAX);
const page = z.coerce.number().int().min(1).max(100_000).optional();
const limit = z.coerce.number().int().min(1).max(100).optional();

/** `/manage/keywordListCreate`. */
export const ManageKeywordListCreateBody = z.object({
  name: listName,
  action: KeywordActionSchema,
});

/** `/manage/keywordListUpdate`: whichever of name, action and the switch are given change. */
export const ManageKeywordListUpdateBody = z.object({
  id: rowId,
  name: listName.optional(),
  action: KeywordActionSchema.optional(),
  /** 1 on, 0 off: a list that is off keeps its words and applies none. */
  enabled: z.coerce.number().int().min(0).max(1).optional(),
});

/** `/manage/keywordListDel`: the list and all its words. */
export const ManageKeywordListDelBody = z.object({ id: rowId });

/** `/manage/keywordWords`: a page of a list's words, newest first, or of those containing `keywords`. */
export const ManageKeywordWordsBody = z.object({
  list_id: rowId,
  keywords: z.string().trim().max(KEYWORDS_MAX).optional(),
  page,
  limit,
});

/**
 * `/manage/keywordAdd`: words to add, one a line (a bulk import is the same call). A word is matched
 * without regard to case or full/half width; a pattern is parts joined by `*`, each `*` standing
 * for up to KEYWORD_GAP_MAX characters (`赌*博`). Blank lines are skipped, words already in the
 * list kept once; the list holds at most KEYWORDS_PER_LIST_MAX, checked before anything is added.
 */
export const ManageKeywordAddBody = z.object({
  list_id: rowId,
  words: z.string().max(KEYWORD_IMPORT_TEXT_MAX),
});

/** `/manage/keywordRemove`: words of the list, by id. */
export const ManageKeywordRemoveBody = z.object({
  list_id: rowId,
  ids: z.array(rowId).min(1).max(1000),
});

/** `/manage/keywordTest`: what the lists now make of a text (nothing is stored). */
export const ManageKeywordTestBody = z.object({
  text: z.string().min(1).max(KEYWORD_TEST_TEXT_MAX),
});

/** `/manage/heldList`: a page of held items, oldest first; by status (0 waiting, default; 1 approved; 2 rejected). */
export const ManageHeldListBody = z.object({
  status: z.coerce.number().int().min(0).max(2).optional(),
  page,
  limit,
});

/** `/manage/heldDecide`: approve (delivered, published) or reject a held item; decided once. */
export const ManageHeldDecideBody = z.object({
  id: rowId,
  decision: z.enum(['approve', 'reject']),
});

/** One keyword list (`/manage/keywordLists`). */
export interface KeywordList {
  id: number;
  name: string;
  action: KeywordActionName;
  /** 1 on, 0 off. */
  enabled: number;
  /** How many words and patterns it holds. */
  word_count: number;
  create_time: number;
}

/** One word or pattern of a list (`/manage/keywordWords`). */
export interface KeywordWord {
  id: number;
  word: string;
}

/** What `/manage/keywordAdd` did: how many words were added, already there, and those refused with why. */
export interface KeywordAddResult {
  added: number;
  existing: number;
  /** Words that cannot be keywords (a `*` at an end or doubled, longer than KEYWORD_WORD_MAX). */
  invalid: string[];
}

/** What the lists make of a text (`/manage/keywordTest`): the strongest action (null: none), the words found, the text as stored. */
export interface KeywordTestResult {
  action: KeywordActionName | null;
  words: string[];
  replaced: string;
}

/** One held item (`/manage/heldList`). */
export interface HeldItem {
  id: number;
  /** A message, a moments post or a comment. */
  kind: 'message' | 'moment' | 'comment';
  user_id: number;
  /** Its author's name and account. */
  realname: string;
  account: string;
  /** Where it goes: the peer's or the group's name (a message); empty for the others. */
  target: string;
  /** Its text as the author wrote it (after replace lists). */
  content: string;
  /** The words that held it. */
  words: string[];
  /** 0 waiting, 1 approved, 2 rejected. */
  status: number;
  create_time: number;
  decide_time: number;
}
