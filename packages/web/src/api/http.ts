import {
  CLIENT_HEADER,
  Codes,
  NETWORK_TIMEOUT_MS,
  RELOGIN_DELAY_MS,
  REQUEST_TIMEOUT_MS,
  TOAST_SERVER_MS,
  routes,
  type Contact,
  type Envelope,
  type RouteBody,
  type RouteName,
  type RouteResponses,
} from '@sparrow/protocol';
import { ApiError, type ApiErrorKind } from './errors';

export { ApiError, type ApiErrorKind };

/** The texts of the error catalogue (docs/product.md §8) the request layer shows itself. */
export type ErrorText =
  | 'errors.tip'
  | 'errors.authExpired'
  | 'errors.serverError'
  | 'errors.noNetwork'
  | 'errors.networkDisconnected'
  | 'errors.networkExpire'
  | 'errors.goLogin';

/** What the request layer needs from the screen: toasts, a loading indicator and a dialog. */
export interface FeedbackUi {
  toast(text: string, durationMs?: number): void;
  showLoading(): void;
  hideLoading(): void;
  /** A modal alert; resolves when the user confirms. */
  alert(options: { title: string; content: string; confirmText: string }): Promise<void>;
}

/**
 * A multipart upload for a transport that reports the bytes sent (fetch cannot over HTTP/1.1).
 * The transport sets the multipart content type itself, with its own boundary.
 */
export interface UploadRequest {
  url: string;
  headers: Headers;
  body: FormData;
  signal: AbortSignal;
  onProgress: (loaded: number, total: number) => void;
}

export interface HttpDeps {
  fetch: (request: Request) => Promise<Response>;
  /** Sends uploads whose caller wants progress; without it they go through `fetch`, unmeasured. */
  upload?: (request: UploadRequest) => Promise<Response>;
  ui: FeedbackUi;
  t: (key: ErrorText) => string;
  getToken(): string | null;
  getClientId(): string | null;
  getCid(): string;
  getLanguage(): string;
  isOnline(): boolean;
  /** Drops the session and shows the login page (code -1, HTTP 401). */
  onSessionInvalid(): void;
  /** What route paths resolve against; the page's own address by default. */
  baseUrl?: string;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

export interface RequestOptions {
  /**
   * Show no toast or dialog for this call's failure; the caller handles the thrown ApiError. An
   * ended session (code -1, HTTP 401) is the exception: every call ends it the same way.
   */
  silent?: boolean;
  /** Do not toast the server's `msg` on success. */
  quiet?: boolean;
  /** Show the loading indicator until the call settles. */
  loading?: boolean;
  /**
   * Bytes of a multipart body sent so far (`total` 0 when unknown). While bytes keep moving the
   * time-out waits: it counts from the last progress, so a large file on a slow line completes.
   */
  onUploadProgress?: (loaded: number, total: number) => void;
  /** Cancels the call: it then fails with kind `aborted` and shows nothing. */
  signal?: AbortSignal;
}

/** A successful call's envelope minus the code. */
export interface ApiResult<T> {
  data: T;
  msg: string;
  count?: number;
  page?: number;
  /** getContacts: the `system` pseudo-contact, sent beside the list (protocol `Envelope.system`). */
  system?: Contact;
}

/** The body a route takes: FormData for uploads, the route's schema input otherwise. */
export type ApiBody<N extends RouteName> = (typeof routes)[N] extends { multipart: true }
  ? FormData
  : RouteBody<N> | FormData;

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number' && 'msg' in v;
}

async function readEnvelope(res: Response): Promise<Envelope | null> {
  try {
    const body: unknown = await res.json();
    return isEnvelope(body) ? body : null;
  } catch {
    return null;
  }
}

/**
 * The HTTP client of docs/product.md §7/§8: POST with JSON (or multipart for uploads), the four headers, the
 * time-out, and every row of the error catalogue turned into the same feedback on every page.
 */
export function createHttpClient(deps: HttpDeps) {
  const setTimer = deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimeout ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));

  /** Feedback decided while the call runs, shown once the loading indicator is gone. */
  type Feedback = { toast: string; ms?: number } | { relogin: string } | { dialog: true } | null;

  class Failure {
    constructor(
      readonly error: ApiError,
      readonly feedback: Feedback,
    ) {}
  }

  function fail(
    kind: ApiErrorKind,
    text: string,
    extra: { code?: number; data?: unknown; status?: number; toastMs?: number } = {},
  ): never {
    const feedback = text ? { toast: text, ms: extra.toastMs } : null;
    throw new Failure(new ApiError(kind, text, extra.code, extra.data, extra.status), feedback);
  }

  /** The session whose end is being shown: many calls failing with it show it once. */
  let ending: string | null = null;

  /**
   * Shows a call's feedback. An ended session is the one the call was sent with (`sentWith`): a
   * call still on its way while that session ended and another signed in speaks of a session that
   * is gone, and ends nothing; the sign-in that follows is the session's still when it comes.
   */
  function show(feedback: Feedback, sentWith?: string | null): void {
    if (!feedback) return;
    if ('toast' in feedback) {
      deps.ui.toast(feedback.toast, feedback.ms);
      return;
    }
    const token = deps.getToken();
    if (token === null || token === ending || (sentWith !== undefined && sentWith !== token)) return;
    ending = token;
    const signInAgain = () => {
      if (deps.getToken() === token) deps.onSessionInvalid();
    };
    if ('relogin' in feedback) {
      if (feedback.relogin) deps.ui.toast(feedback.relogin, TOAST_SERVER_MS);
      setTimer(signInAgain, RELOGIN_DELAY_MS);
    } else {
      void deps.ui
        .alert({
          title: deps.t('errors.tip'),
          content: deps.t('errors.authExpired'),
          confirmText: deps.t('errors.goLogin'),
        })
        .then(signInAgain);
    }
  }

  function buildHeaders(): Headers {
    const headers = new Headers();
    const token = deps.getToken();
    if (token) headers.set('Authorization', token);
    const clientId = deps.getClientId();
    if (clientId) headers.set('clientId', clientId);
    headers.set('cid', deps.getCid());
    headers.set('Accept-Language', deps.getLanguage());
    headers.set(CLIENT_HEADER, 'web');
    return headers;
  }

  function buildUrl(path: string): URL {
    return new URL(path, deps.baseUrl ?? globalThis.location?.href);
  }

  function buildRequest(path: string, body: unknown, signal: AbortSignal): Request {
    const headers = buildHeaders();
    let payload: BodyInit;
    if (body instanceof FormData) {
      payload = body;
    } else {
      headers.set('Content-Type', 'application/json');
      payload = JSON.stringify(body ?? {});
    }
    return new Request(buildUrl(path), { method: 'POST', headers, body: payload, signal });
  }

  /** Sends a request through the progress-reporting transport when the caller asked for progress. */
  function transmit(
    path: string,
    body: unknown,
    signal: AbortSignal,
    onProgress: ((loaded: number, total: number) => void) | undefined,
  ): () => Promise<Response> {
    if (onProgress && deps.upload && body instanceof FormData) {
      const upload = deps.upload;
      const request: UploadRequest = { url: buildUrl(path).href, headers: buildHeaders(), body, signal, onProgress };
      return () => upload(request);
    }
    const request = buildRequest(path, body, signal);
    return () => deps.fetch(request);
  }

  function handleEnvelope<T>(env: Envelope): { result: ApiResult<T>; msg: string } {
    const msg = typeof env.msg === 'string' ? env.msg : '';
    if (env.code === Codes.Ok) {
      const result: ApiResult<T> = { data: env.data as T, msg };
      if (env.count !== undefined) result.count = env.count;
      if (env.page !== undefined) result.page = env.page;
      if (env.system !== undefined) result.system = env.system;
      return { result, msg };
    }
    if (env.code === Codes.NoSession) {
      throw new Failure(new ApiError('session', msg, env.code, env.data), { relogin: msg });
    }
    return fail('server', msg || deps.t('errors.noNetwork'), {
      code: env.code,
      data: env.data,
      toastMs: TOAST_SERVER_MS,
    });
  }

  async function send<T>(
    path: string,
    body: unknown,
    timeoutMs: number,
    opts: Pick<RequestOptions, 'onUploadProgress' | 'signal'> = {},
  ): Promise<{ result: ApiResult<T>; msg: string }> {
    const { signal, onUploadProgress } = opts;
    if (signal?.aborted) return fail('aborted', '');
    if (!deps.isOnline()) {
      return fail('offline', deps.t('errors.networkDisconnected'));
    }
    const controller = new AbortController();
    let timer = setTimer(() => controller.abort(), timeoutMs);
    const progress = onUploadProgress
      ? (loaded: number, total: number) => {
          clearTimer(timer);
          timer = setTimer(() => controller.abort(), timeoutMs);
          onUploadProgress(loaded, total);
        }
      : undefined;
    const cancel = () => controller.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    let res: Response;
    try {
      let start: () => Promise<Response>;
      try {
        start = transmit(path, body, controller.signal, progress);
      } catch {
        return fail('setup', deps.t('errors.networkExpire'));
      }
      try {
        res = await start();
      } catch {
        if (signal?.aborted) return fail('aborted', '');
        return fail('network', deps.t('errors.noNetwork'));
      }
    } finally {
      clearTimer(timer);
      signal?.removeEventListener('abort', cancel);
    }
    if (res.status === 401) {
      const error = new ApiError('unauthorized', deps.t('errors.authExpired'), undefined, undefined, 401);
      throw new Failure(error, { dialog: true });
    }
    if (res.status === 500) {
      return fail('server-status', deps.t('errors.serverError'), { status: 500 });
    }
    const env = await readEnvelope(res);
    if (!env) {
      if (signal?.aborted) return fail('aborted', '');
      return fail('network', deps.t('errors.noNetwork'), { status: res.status });
    }
    return handleEnvelope<T>(env);
  }

  /** Calls a route and answers its whole result (`data`, `msg`, `count`, `page`). */
  async function request<N extends RouteName>(
    name: N,
    body?: ApiBody<N>,
    opts: RequestOptions = {},
  ): Promise<ApiResult<RouteResponses[N]>> {
    const route = routes[name];
    const timeout = 'multipart' in route && route.multipart ? NETWORK_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
    const showLoading = opts.loading === true && !opts.silent;
    if (showLoading) deps.ui.showLoading();
    let outcome: { result: ApiResult<RouteResponses[N]>; msg: string };
    const sentWith = deps.getToken();
    try {
      outcome = await send<RouteResponses[N]>(route.path, body, timeout, opts);
    } catch (e) {
      if (showLoading) deps.ui.hideLoading();
      if (!(e instanceof Failure)) throw e;
      if (!opts.silent || (e.feedback && !('toast' in e.feedback))) show(e.feedback, sentWith);
      throw e.error;
    }
    if (showLoading) deps.ui.hideLoading();
    if (outcome.msg && !opts.silent && !opts.quiet) deps.ui.toast(outcome.msg, TOAST_SERVER_MS);
    return outcome.result;
  }

  /**
   * The session has ended, told by something other than a call (the socket refused it): shown the
   * same way as a -1 answer, and once for both.
   */
  function endSession(message: string): void {
    show({ relogin: message });
  }

  return { request, endSession };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
