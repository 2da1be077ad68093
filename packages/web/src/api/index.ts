import type { CodeType, RouteName, RouteResponses } from '@sparrow/protocol';
import type * as ClientModule from './client';
import type { ApiBody, ApiResult, RequestOptions } from './http';

export { ApiError } from './errors';
export type { ApiBody, ApiResult, RequestOptions } from './http';

/*
 * The route table carries every endpoint's zod schema, so the client built from it is its own
 * chunk: the first screen paints without zod, and the chunk arrives with the first call.
 */
let client: Promise<(typeof ClientModule)['client']> | null = null;
function loadClient() {
  client ??= import('./client').then(
    (m) => m.client,
    (error: unknown) => {
      client = null;
      throw error;
    },
  );
  return client;
}

/** Calls a route and answers its whole result (`data`, `msg`, `count`, `page`). */
export async function request<N extends RouteName>(
  name: N,
  body?: ApiBody<N>,
  opts?: RequestOptions,
): Promise<ApiResult<RouteResponses[N]>> {
  return (await loadClient()).request(name, body, opts);
}

type Api = {
  [N in RouteName]: (body?: ApiBody<N>, opts?: RequestOptions) => Promise<RouteResponses[N]>;
};

/** `api.<route>(body, opts)`: POSTs to the route's path and answers its `data`. */
export const api = new Proxy({} as Api, {
  get: (_, name) =>
    // Not thenable: `await api` or Promise.resolve(api) must not turn into a call.
    typeof name !== 'string' || name === 'then'
      ? undefined
      : async (body?: unknown, opts?: RequestOptions) => (await request(name as RouteName, body as never, opts)).data,
});

/** Starts fetching the client early, e.g. while the login form is being filled in. */
export function preloadApi(): void {
  loadClient().catch(() => {
    // Retried on the first real call.
  });
}

/** Sends a verification code; `purpose` names a CodeType (Login, Register, ChangePassword…). */
export async function sendCode(account: string, purpose: keyof typeof CodeType, opts?: RequestOptions): Promise<null> {
  const { sendCode: send } = await import('./client');
  return send(account, purpose, opts);
}
