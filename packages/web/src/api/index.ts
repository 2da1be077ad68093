import type { CodeType, RouteName, RouteResponses } from '@sparrow/protocol';
import type * as ClientModule from './client';
import type { ApiEnvironment } from './client';
import { createApi } from './facade';
import type { ApiBody, ApiResult, HttpClient, RequestOptions } from './http';

export { ApiError, isUnreachable } from './errors';
export type { ApiEnvironment } from './client';
export type { Api } from './facade';
export type { ApiBody, ApiResult, FeedbackUi, RequestOptions } from './http';

let environment: ApiEnvironment | null = null;
let client: Promise<HttpClient> | null = null;

/**
 * Hands the request layer what it reads from above (the token, the language, the screen's
 * feedback); the app calls it once at start, before the first request.
 */
export function configureApi(env: ApiEnvironment): void {
  environment = env;
  client = null;
}

let clientModule: Promise<typeof ClientModule> | null = null;

/*
 * The route table carries every endpoint's zod schema, so the client built from it is its own
 * chunk: the first screen paints without zod, and the chunk arrives with the first call.
 */
function loadModule(): Promise<typeof ClientModule> {
  clientModule ??= import('./client').catch((error: unknown) => {
    clientModule = null;
    throw error;
  });
  return clientModule;
}

function loadClient(): Promise<HttpClient> {
  const env = environment;
  if (!env) return Promise.reject(new Error('configureApi() was not called'));
  client ??= loadModule().then(
    (m) => m.createClient(env),
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

/** Ends the session as a -1 answer does (message, then login after RELOGIN_DELAY_MS), once per session. */
export async function endSession(message: string): Promise<void> {
  (await loadClient()).endSession(message);
}

/** `api.<route>(body, opts)`: POSTs to the route's path and answers its `data`. */
export const api = createApi(request);

/** Starts fetching the client early, e.g. while the login form is being filled in. */
export function preloadApi(): void {
  loadModule().catch(() => {
    // Retried on the first real call.
  });
}

/** Sends a verification code; `purpose` names a CodeType (Login, Register, ChangePassword…). */
export async function sendCode(account: string, purpose: keyof typeof CodeType, opts?: RequestOptions): Promise<null> {
  const { CodeType } = await loadModule();
  return api.sendCode({ account, type: CodeType[purpose] }, opts);
}
