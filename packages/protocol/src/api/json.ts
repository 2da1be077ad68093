import * as z from 'zod';

/**
 * How deeply `value` nests objects and arrays (a scalar is 0), counted without recursion and given
 * up on past `limit`: a hostile body nested 10,000 deep costs neither stack nor a full walk.
 */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { v, depth } = item;
    if (typeof v !== 'object' || v === null) continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: inner });
  }
  return deepest;
}

/** A refinement refusing a value that nests objects and arrays deeper than `maxDepth`. */
export const withinDepth =
  (maxDepth: number) =>
  (value: unknown, ctx: z.RefinementCtx): void => {
    if (jsonDepth(value, maxDepth) > maxDepth)
      ctx.addIssue({ code: 'custom', message: `nested deeper than ${maxDepth}`, input: value });
  };

/**
 * Any JSON value nesting at most `maxDepth` objects and arrays, for fields whose content the server
 * passes on without reading: nothing walks or stringifies it past the bound.
 */
export const boundedJson = (maxDepth: number) => z.unknown().superRefine(withinDepth(maxDepth));
