import {
  CLIENT_HEADER,
  newContact,
  NETWORK_TIMEOUT_MS,
  RELOGIN_DELAY_MS,
  REQUEST_TIMEOUT_MS,
  TOAST_SERVER_MS,
  routes,
} from '@sparrow/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../i18n/locales/en.json';
import { createApi } from './facade';
import { ApiError, createHttpClient, type ErrorText } from './http';

type Call = Request;

function setup(
  respond: (req: Request) => Promise<Response> | Response,
  opts: { online?: boolean; token?: string | null | { current: string | null } } = {},
) {
  const calls: Call[] = [];
  const events: string[] = [];
  const ui = {
    toast: vi.fn((text: string, ms?: number) => events.push(`toast:${text}:${ms ?? 'default'}`)),
    showLoading: vi.fn(() => events.push('loading')),
    hideLoading: vi.fn(() => events.push('hide')),
    alert: vi.fn((o: { title: string; content: string; confirmText: string }) => {
      events.push(`alert:${o.title}:${o.content}`);
      return Promise.resolve();
    }),
  };
  const onSessionInvalid = vi.fn(() => events.push('relogin'));
  const t = (key: ErrorText) => en.errors[key.slice('errors.'.length) as keyof typeof en.errors];
  const { request, endSession } = createHttpClient({
    fetch: async (req) => {
      calls.push(req);
      return respond(req);
    },
    ui,
    t,
    getToken: () =>
      opts.token === undefined
        ? 'bearer t0k3n'
        : opts.token !== null && typeof opts.token === 'object'
          ? opts.token.current
          : opts.token,
    getClientId: () => 'client-9',
    getCid: () => 'install-1',
    getLanguage: () => 'fr',
    isOnline: () => opts.online ?? true,
    onSessionInvalid,
    baseUrl: 'http://sparrow.test/',
  });
  return { api: createApi(request), request, endSession, calls, events, ui, onSessionInvalid };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('request layer', () => {
  it('POSTs JSON to the route path with its headers and answers data', async () => {
    const { api, calls, events } = setup(() => json({ code: 0, msg: '', data: { user_id: 1, account: 'alice' } }));
    const user = await api.checkuser({});
    expect(user).toEqual({ user_id: 1, account: 'alice' });
    const req = calls[0]!;
    expect(req.method).toBe('POST');
    expect(new URL(req.url, 'http://x').pathname).toBe(routes.checkuser.path);
    expect(req.headers.get('Authorization')).toBe('bearer t0k3n');
    expect(req.headers.get('clientId')).toBe('client-9');
    expect(req.headers.get('cid')).toBe('install-1');
    expect(req.headers.get('Accept-Language')).toBe('fr');
    expect(req.headers.get(CLIENT_HEADER)).toBe('web');
    expect(req.headers.get('Content-Type')).toBe('application/json');
    expect(await req.text()).toBe('{}');
    expect(events).toEqual([]);
  });

  it('sends no Authorization header when signed out', async () => {
    const { api, calls } = setup(() => json({ code: 0, msg: '', data: null }), { token: null });
    await api.getSystemInfo({});
    expect(calls[0]!.headers.has('Authorization')).toBe(false);
  });

  it('answers count and page with request()', async () => {
    const { request } = setup(() => json({ code: 0, msg: '', data: [], count: 12, page: 2 }));
    expect(await request('searchUser', { keywords: 'bob' })).toEqual({
      data: [],
      msg: '',
      count: 12,
      page: 2,
    });
  });

  it('answers the system row getContacts sends beside its list', async () => {
    const system = newContact({ id: 'system', displayName: '新的朋友', is_group: 2, unread: 1 });
    const { request } = setup(() => json({ code: 0, msg: '', data: [], count: 1, system }));
    expect(await request('getContacts', {})).toEqual({ data: [], msg: '', count: 1, system });
  });

  it('toasts a success msg for 2.5 s unless the caller is quiet', async () => {
    const { api, events } = setup(() => json({ code: 0, msg: 'Saved', data: null }));
    await api.updateUserInfo({ motto: 'hi' });
    await api.updateUserInfo({ motto: 'hi' }, { quiet: true });
    expect(events).toEqual([`toast:Saved:${TOAST_SERVER_MS}`]);
  });

  for (const code of [400, 401, 402, 403, 404, 405, 429, 500, 502]) {
    it(`toasts the server msg for 2.5 s on envelope code ${code}`, async () => {
      const { api, events } = setup(() => json({ code, msg: `refused ${code}`, data: { fields: ['account'] } }));
      const e = await failure(api.login({ account: 'alice', password: 'secret1' }));
      expect(e.kind).toBe('server');
      expect(e.code).toBe(code);
      expect(e.message).toBe(`refused ${code}`);
      expect(e.fields).toEqual(['account']);
      expect(events).toEqual([`toast:refused ${code}:${TOAST_SERVER_MS}`]);
    });
  }

  it('treats an error envelope on another HTTP status (429) by its code', async () => {
    const { api, events } = setup(() => json({ code: 429, msg: 'Slow down', data: null }, 429));
    const e = await failure(api.sendCode({ account: 'a@b.co', type: 2 }));
    expect(e.kind).toBe('server');
    expect(events).toEqual([`toast:Slow down:${TOAST_SERVER_MS}`]);
  });

  it('code -1: shows msg, then after 1 s drops the session and goes to login', async () => {
    const { api, events, onSessionInvalid } = setup(() => json({ code: -1, msg: 'Session expired', data: null }));
    const e = await failure(api.checkuser({}));
    expect(e.kind).toBe('session');
    expect(events).toEqual([`toast:Session expired:${TOAST_SERVER_MS}`]);
    vi.advanceTimersByTime(RELOGIN_DELAY_MS - 1);
    expect(onSessionInvalid).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);
  });

  it('HTTP 401: dialog "Tip" with the expiry text, confirm goes to login', async () => {
    const { api, events, onSessionInvalid } = setup(() => new Response('', { status: 401 }));
    const e = await failure(api.checkuser({}));
    expect(e.kind).toBe('unauthorized');
    expect(e.status).toBe(401);
    await vi.runAllTimersAsync();
    expect(events).toEqual(['alert:Tip:The authorization information has expired. Please log in again!', 'relogin']);
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);
  });

  it('HTTP 500: "The server returned an error, please check!"', async () => {
    const { api, events } = setup(() => json({ code: 502, msg: 'boom (req 1)', data: null }, 500));
    const e = await failure(api.checkuser({}));
    expect(e.kind).toBe('server-status');
    expect(events).toEqual(['toast:The server returned an error, please check!:default']);
  });

  it('other failures: "No network" (fetch rejects, non-JSON answer, 404 page)', async () => {
    for (const respond of [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => new Response('<html>bad gateway</html>', { status: 502 }),
      () => new Response('not found', { status: 404 }),
    ]) {
      const { api, events } = setup(respond);
      const e = await failure(api.checkuser({}));
      expect(e.kind).toBe('network');
      expect(events).toEqual(['toast:No network:default']);
    }
  });

  it('times out after 10 s as "No network"', async () => {
    const { api, events } = setup(
      (req) =>
        new Promise<Response>((_, reject) => {
          req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = failure(api.checkuser({}));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const e = await pending;
    expect(e.kind).toBe('network');
    expect(events).toEqual(['toast:No network:default']);
  });

  it('gives uploads the longer network time-out', async () => {
    const { api } = setup(
      (req) =>
        new Promise<Response>((resolve, reject) => {
          req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          setTimeout(() => resolve(json({ code: 0, msg: '', data: '/storage/a.png' })), REQUEST_TIMEOUT_MS + 5);
        }),
    );
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');
    const pending = api.uploadAvatar(form);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 5);
    expect(await pending).toBe('/storage/a.png');
    expect(NETWORK_TIMEOUT_MS).toBeGreaterThan(REQUEST_TIMEOUT_MS);
  });

  it('sends FormData as multipart, without a JSON content type', async () => {
    const { api, calls } = setup(() => json({ code: 0, msg: '', data: '/storage/a.png' }));
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await api.uploadAvatar(form);
    expect(calls[0]!.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(new URL(calls[0]!.url, 'http://x').pathname).toBe(routes.uploadAvatar.path);
  });

  it('network lost before a request: says so and sends nothing', async () => {
    const { api, calls, events } = setup(() => json({ code: 0, msg: '', data: null }), {
      online: false,
    });
    const e = await failure(api.checkuser({}));
    expect(e.kind).toBe('offline');
    expect(calls).toHaveLength(0);
    expect(events).toEqual(['toast:Your network has been disconnected, please check!:default']);
  });

  it('request setup failure: "Network Expire"', async () => {
    const { api, calls, events } = setup(() => json({ code: 0, msg: '', data: null }), {
      token: 'bearer bad\nheader',
    });
    const e = await failure(api.checkuser({}));
    expect(e.kind).toBe('setup');
    expect(calls).toHaveLength(0);
    expect(events).toEqual(['toast:Network Expire:default']);
  });

  it('silent callers get the error and no toast', async () => {
    for (const respond of [
      () => json({ code: 400, msg: 'bad', data: null }),
      () => new Response('', { status: 500 }),
      () => Promise.reject(new TypeError('offline')),
    ]) {
      const { api, events, onSessionInvalid } = setup(respond);
      await failure(api.checkuser({}, { silent: true }));
      await vi.runAllTimersAsync();
      expect(events).toEqual([]);
      expect(onSessionInvalid).not.toHaveBeenCalled();
    }
  });

  it('an ended session ends it for silent callers too, shown once for many calls, and not when signed out', async () => {
    const { api, events, onSessionInvalid } = setup(() => json({ code: -1, msg: 'expired', data: null }));
    await Promise.all([
      failure(api.sync({ after_id: 0 }, { silent: true })),
      failure(api.sync({ after_id: 0 }, { silent: true })),
      failure(api.checkuser({})),
    ]);
    await vi.runAllTimersAsync();
    expect(events).toEqual([`toast:expired:${TOAST_SERVER_MS}`, 'relogin']);
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);

    // Told by the socket first, then answered -1: shown once.
    const both = setup(() => json({ code: -1, msg: 'expired', data: null }));
    both.endSession('Authorization expired');
    await failure(both.api.sync({ after_id: 0 }, { silent: true }));
    await vi.runAllTimersAsync();
    expect(both.events).toEqual([`toast:Authorization expired:${TOAST_SERVER_MS}`, 'relogin']);

    const out = setup(() => new Response('', { status: 401 }), { token: null });
    await failure(out.api.checkuser({}, { silent: true }));
    await vi.runAllTimersAsync();
    expect(out.events).toEqual([]);
  });

  it('a call sent before a session ended and answered after the next sign-in ends nothing', async () => {
    const token = { current: 'old' as string | null };
    let answer: (r: Response) => void = () => undefined;
    const late = setup(() => new Promise<Response>((resolve) => (answer = resolve)), { token });
    const call = failure(late.api.sync({ after_id: 0 }, { silent: true }));
    await vi.waitFor(() => expect(late.calls).toHaveLength(1));
    // Signed out elsewhere, then in again here: the answer to the first call comes after.
    token.current = 'new';
    answer(json({ code: -1, msg: 'expired', data: null }));
    await call;
    await vi.runAllTimersAsync();
    expect(late.events).toEqual([]);
    expect(late.onSessionInvalid).not.toHaveBeenCalled();

    // The session ended, and before the sign-in page came another sign-in took its place: it stays.
    const quick = setup(() => json({ code: -1, msg: 'expired', data: null }), { token });
    await failure(quick.api.checkuser({}));
    token.current = 'newer';
    await vi.runAllTimersAsync();
    expect(quick.events).toEqual([`toast:expired:${TOAST_SERVER_MS}`]);
    expect(quick.onSessionInvalid).not.toHaveBeenCalled();
  });

  it('keeps the loading indicator up until the call settles, then shows the toast', async () => {
    const ok = setup(() => json({ code: 0, msg: '', data: null }));
    await ok.api.logout({}, { loading: true });
    expect(ok.events).toEqual(['loading', 'hide']);

    const bad = setup(() => json({ code: 400, msg: 'nope', data: null }));
    await failure(bad.api.logout({}, { loading: true }));
    expect(bad.events).toEqual(['loading', 'hide', `toast:nope:${TOAST_SERVER_MS}`]);
  });

  it('spells the error texts exactly as the catalogue does (English)', () => {
    expect(en.errors).toMatchObject({
      tip: 'Tip',
      authExpired: 'The authorization information has expired. Please log in again!',
      serverError: 'The server returned an error, please check!',
      noNetwork: 'No network',
      networkDisconnected: 'Your network has been disconnected, please check!',
      networkExpire: 'Network Expire',
      forcedOffline: 'Your account was logged in on another device and has been forced to go offline!',
    });
  });
});
