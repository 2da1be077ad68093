import { createHttpClient, type HttpDeps } from './http';
import { xhrUpload } from './xhr-upload';

export { CodeType } from '@sparrow/protocol';

/** What the request layer needs from the app above it: the session, the language, the screen. */
export type ApiEnvironment = Omit<
  HttpDeps,
  'fetch' | 'upload' | 'isOnline' | 'baseUrl' | 'setTimeout' | 'clearTimeout'
>;

/**
 * The browser's HTTP client: fetch, uploads through XMLHttpRequest for their progress. Loaded as
 * its own chunk, because the route table it reads carries every endpoint's zod schema.
 */
export function createClient(env: ApiEnvironment) {
  return createHttpClient({
    ...env,
    fetch: (req) => fetch(req),
    upload: (req) => xhrUpload(req),
    isOnline: () => navigator.onLine,
  });
}
