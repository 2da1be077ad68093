import type { RouteName, RouteResponses } from '@sparrow/protocol';
import type { ApiBody, ApiResult, RequestOptions } from './http';

/** Calls a route and answers its whole result (`data`, `msg`, `count`, `page`). */
export type Request = <N extends RouteName>(
  name: N,
  body?: ApiBody<N>,
  opts?: RequestOptions,
) => Promise<ApiResult<RouteResponses[N]>>;

/** One method per route of protocol's table: `api.<route>(body, opts)` answers the route's `data`. */
export type Api = {
  [N in RouteName]: (body?: ApiBody<N>, opts?: RequestOptions) => Promise<RouteResponses[N]>;
};

/**
 * The typed API over a `request`. A Proxy rather than a map built from the route table, because
 * the table carries every endpoint's zod schema and the first screen must paint without it.
 */
export function createApi(request: Request): Api {
  return new Proxy({} as Api, {
    get: (_, name) =>
      // Not thenable: `await api` or Promise.resolve(api) must not turn into a call.
      typeof name !== 'string' || name === 'then'
        ? undefined
        : async (body?: unknown, opts?: RequestOptions) => (await request(name as RouteName, body as never, opts)).data,
  });
}
