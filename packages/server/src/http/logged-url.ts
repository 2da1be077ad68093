/**
 * A request's URL as the log shows it, without the secrets some URLs carry: a scan path's token (a
 * key to a group, a login code) and a robot webhook's `key` (docs/protocol.md §10), each of which
 * would let whoever reads the log act with it.
 */
export function loggedUrl(url: string): string {
  return url.replace(/(\/scan\/[ugl]\/)[^/?#]+/i, '$1…').replace(/([?&]key=)[^&#]*/gi, '$1…');
}
