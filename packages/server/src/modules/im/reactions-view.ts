import { takesReactions, type Reaction } from '@sparrow/protocol';
import type { ReactionRepo } from './reactions-repo';
import type { MessageRow } from './repo';

/**
 * The reactions of `rows` as `readerId` sees them, by msg_id: one query whatever the number of
 * rows or reactions (the counts per emoji with the reader's own among them).
 */
export async function reactionsFor(
  repo: Pick<ReactionRepo, 'counts'>,
  rows: readonly MessageRow[],
  readerId: number,
): Promise<Map<number, Reaction[]>> {
  const ids = rows.filter((r) => !r.is_undo && takesReactions(r.type)).map((r) => r.id);
  const out = new Map<number, Reaction[]>();
  for (const c of await repo.counts(ids, readerId)) {
    const list = out.get(c.msg_id) ?? [];
    list.push({ emoji: c.emoji, count: c.count, mine: c.mine });
    out.set(c.msg_id, list);
  }
  return out;
}
