import { NETWORK_TIMEOUT_MS, TOAST_SERVER_MS, routes } from '@sparrow/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../i18n/locales/en.json';
import { createApi } from './facade';
import { ApiError, createHttpClient, type ErrorText, type UploadRequest } from './http';
import { xhrUpload } from './xhr-upload';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const stored = { file_id: 7, src: '/storage/ab/cd.pdf', name: 'a.pdf', size: 3, ext: 'pdf', cate: 1, mime: 'x' };

/** An upload transport the test drives by hand: progress, then an answer or a failure. */
function manualTransport() {
  const sent: UploadRequest[] = [];
  let finish: ((res: Response) => void) | undefined;
  let failWith: ((e: unknown) => void) | undefined;
  const upload = vi.fn(
    (req: UploadRequest) =>
      new Promise<Response>((resolve, reject) => {
        sent.push(req);
        finish = resolve;
        failWith = reject;
        req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      }),
  );
  return {
    upload,
    sent,
    answer: (res: Response) => finish?.(res),
    fail: (e: unknown) => failWith?.(e),
  };
}

function setup(transport = manualTransport()) {
  const events: string[] = [];
  const fetch = vi.fn(async () => json({ code: 0, msg: '', data: stored }));
  const t = (key: ErrorText) => en.errors[key.slice('errors.'.length) as keyof typeof en.errors];
  const client = createHttpClient({
    fetch,
    upload: transport.upload,
    ui: {
      toast: (text, ms) => events.push(`toast:${text}:${ms ?? 'default'}`),
      showLoading: () => events.push('loading'),
      hideLoading: () => events.push('hide'),
      alert: () => Promise.resolve(),
    },
    t,
    getToken: () => 'bearer t0k3n',
    getClientId: () => 'client-9',
    getCid: () => 'install-1',
    getLanguage: () => 'en',
    isOnline: () => true,
    onSessionInvalid: () => events.push('relogin'),
    baseUrl: 'http://sparrow.test/',
  });
  return { ...client, api: createApi(client.request), transport, events, fetch };
}

function form(): FormData {
  const f = new FormData();
  f.append('message', '{"id":"m-1"}');
  f.append('file', new Blob(['abc'], { type: 'application/pdf' }), 'a.pdf');
  return f;
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('uploads with progress and cancel', () => {
  it('goes through the progress transport with the session headers and reports every step', async () => {
    const { api, transport, fetch } = setup();
    const seen: Array<[number, number]> = [];
    const pending = api.uploadFile(form(), { onUploadProgress: (l, t) => seen.push([l, t]) });
    await vi.advanceTimersByTimeAsync(0);
    const req = transport.sent[0]!;
    expect(new URL(req.url).pathname).toBe(routes.uploadFile.path);
    expect(req.headers.get('Authorization')).toBe('bearer t0k3n');
    expect(req.headers.get('clientId')).toBe('client-9');
    expect(req.headers.get('cid')).toBe('install-1');
    expect(req.headers.get('Content-Type')).toBeNull();
    expect(req.body.get('message')).toBe('{"id":"m-1"}');
    req.onProgress(1, 3);
    req.onProgress(3, 3);
    transport.answer(json({ code: 0, msg: '', data: stored }));
    expect(await pending).toEqual(stored);
    expect(seen).toEqual([
      [1, 3],
      [3, 3],
    ]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('without a progress callback uses fetch like any other call', async () => {
    const { api, transport, fetch } = setup();
    expect(await api.uploadFile(form())).toEqual(stored);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(transport.upload).not.toHaveBeenCalled();
  });

  it('cancel: fails with kind "aborted" and shows nothing', async () => {
    const { api, events } = setup();
    const cancel = new AbortController();
    const pending = failure(api.uploadFile(form(), { signal: cancel.signal, onUploadProgress: () => {} }));
    await vi.advanceTimersByTimeAsync(0);
    cancel.abort();
    const e = await pending;
    expect(e.kind).toBe('aborted');
    await vi.runAllTimersAsync();
    expect(events).toEqual([]);
  });

  it('an upload cancelled before it starts sends nothing', async () => {
    const { api, transport, fetch } = setup();
    const cancel = new AbortController();
    cancel.abort();
    expect((await failure(api.uploadFile(form(), { signal: cancel.signal }))).kind).toBe('aborted');
    expect(transport.upload).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('the time-out counts from the last progress, so a slow but moving upload completes', async () => {
    const { api, transport } = setup();
    const pending = api.uploadFile(form(), { onUploadProgress: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    const req = transport.sent[0]!;
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(NETWORK_TIMEOUT_MS - 1000);
      req.onProgress(i, 3);
    }
    expect(req.signal.aborted).toBe(false);
    transport.answer(json({ code: 0, msg: '', data: stored }));
    expect(await pending).toEqual(stored);
  });

  it('a stalled upload times out as "No network"', async () => {
    const { api, events } = setup();
    const pending = failure(api.uploadFile(form(), { onUploadProgress: () => {} }));
    await vi.advanceTimersByTimeAsync(NETWORK_TIMEOUT_MS + 1);
    const e = await pending;
    expect(e.kind).toBe('network');
    expect(events).toEqual(['toast:No network:default']);
  });

  it('a refusal (code 401: too large, forbidden type) is toasted with the server reason', async () => {
    const { api, transport, events } = setup();
    const pending = failure(api.uploadFile(form(), { onUploadProgress: () => {} }));
    await vi.advanceTimersByTimeAsync(0);
    transport.answer(json({ code: 401, msg: 'File larger than 50 MB', data: null }));
    const e = await pending;
    expect([e.kind, e.code]).toEqual(['server', 401]);
    expect(events).toEqual([`toast:File larger than 50 MB:${TOAST_SERVER_MS}`]);
  });
});

/** A scripted XMLHttpRequest. */
class FakeXhr {
  static last: FakeXhr | undefined;
  status = 0;
  responseText = '';
  headers: Record<string, string> = {};
  opened: [string, string] | undefined;
  body: FormData | undefined;
  aborted = false;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? 'application/json' : null;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
}

/** The fake as the browser type; it has every member xhrUpload touches. */
const fake = () => new FakeXhr() as unknown as XMLHttpRequest;

describe('xhrUpload', () => {
  const request = (signal: AbortSignal, onProgress = vi.fn()): UploadRequest => {
    const headers = new Headers({ Authorization: 'bearer x', 'Content-Type': 'multipart/form-data; boundary=old' });
    return { url: 'http://sparrow.test/common/upload/uploadFile', headers, body: form(), signal, onProgress };
  };

  it('forwards progress and answers the response, leaving the content type to the browser', async () => {
    const onProgress = vi.fn();
    const pending = xhrUpload(request(new AbortController().signal, onProgress), fake);
    const xhr = FakeXhr.last!;
    expect(xhr.opened).toEqual(['POST', 'http://sparrow.test/common/upload/uploadFile']);
    expect(xhr.headers).toEqual({ authorization: 'bearer x' });
    xhr.upload.onprogress?.({ loaded: 5, total: 10, lengthComputable: true } as ProgressEvent);
    xhr.upload.onprogress?.({ loaded: 7, total: 0, lengthComputable: false } as ProgressEvent);
    expect(onProgress.mock.calls).toEqual([
      [5, 10],
      [7, 0],
    ]);
    xhr.status = 200;
    xhr.responseText = '{"code":0}';
    xhr.onload?.();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 0 });
  });

  it('aborts the request when the signal fires', async () => {
    const cancel = new AbortController();
    const pending = xhrUpload(request(cancel.signal), fake);
    cancel.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last!.aborted).toBe(true);
  });

  it('rejects on a network error', async () => {
    const pending = xhrUpload(request(new AbortController().signal), fake);
    FakeXhr.last!.onerror?.();
    await expect(pending).rejects.toBeInstanceOf(TypeError);
  });
});
