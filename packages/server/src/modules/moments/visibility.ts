import { MomentVisibility } from '@sparrow/protocol';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';

/**
 * Which of its author's friends a post's visibility admits (docs/product.md §6), in the two forms
 * the code asks it in: a predicate for one reader (Access.seesMoment, the push audience) and an SQL
 * condition for many (an album, the timelines written at publish and on befriending). Both read the
 * same table; `test/moment-visibility.test.ts` holds them to each other. Friendship, the author's
 * hide list and range are asked beside it, where each is read.
 */
const ADMITS: Record<number, (named: boolean) => boolean> = {
  [MomentVisibility.Friends]: () => true,
  [MomentVisibility.Private]: () => false,
  [MomentVisibility.Only]: (named) => named,
  [MomentVisibility.Except]: (named) => !named,
};

/** Whether a post of `visibility` admits a friend of its author; `named` when the post names them. */
export function admitsFriend(visibility: number, named: boolean): boolean {
  return ADMITS[visibility]?.(named) ?? false;
}

/** Whether a post of `visibility` admits no friend whoever it names (only its author sees it). */
export function admitsNoFriend(visibility: number): boolean {
  return !admitsFriend(visibility, true) && !admitsFriend(visibility, false);
}

/** Whether the answer depends on the people the post names (otherwise they need not be read). */
export function readsNamed(visibility: number): boolean {
  return admitsFriend(visibility, true) !== admitsFriend(visibility, false);
}

/**
 * `admitsFriend` as an SQL condition: `visibility` the post's visibility (a column, or a value),
 * `named` the condition that the post names the reader. Built from the same table as the predicate.
 */
export function admitsFriendSql<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  visibility: Expression<number>,
  named: Expression<SqlBool>,
): Expression<SqlBool> {
  const cases = Object.entries(ADMITS).flatMap(([v, admits]) => {
    const is = eb(visibility, '=', Number(v));
    const [ifNamed, ifNot] = [admits(true), admits(false)];
    if (ifNamed && ifNot) return [is];
    if (ifNamed) return [eb.and([is, named])];
    if (ifNot) return [eb.and([is, eb.not(named)])];
    return [];
  });
  return eb.or(cases);
}
