/**
 * `fn` called at most once per `ms` (by the server's clock); calls in between are dropped. For logs
 * of a condition that lasts, such as a full disk, that would otherwise repeat on every request.
 */
export function atMostEvery<A extends unknown[]>(ms: number, now: () => number, fn: (...args: A) => void) {
  let last = -Infinity;
  return (...args: A) => {
    const t = now();
    if (t - last < ms) return;
    last = t;
    fn(...args);
  };
}
