import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { CLIENT_HEADER } from '@sparrow/protocol';
import { expect } from 'vitest';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots of every page the suites visit, kept as test artefacts (a wide run's apart, by its width). */
export const SHOTS_DIR = path.join(
  root,
  'test-results',
  process.env.E2E_WIDTH ? `screenshots-${process.env.E2E_WIDTH}` : 'screenshots',
);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

interface ServerBuild {
  serverNodeArgs: string[];
  /** The browser suite's own bundle's folder, apart from the dist/ that `npm start` builds. */
  e2eServerDist: string;
  buildServer(outDir: string): Promise<void>;
}

/** scripts/build-server.mjs: where `npm start` builds the server, and how it runs it. */
export function serverBuild(): Promise<ServerBuild> {
  return import(path.join(root, 'scripts/build-server.mjs')) as Promise<ServerBuild>;
}

/** A real Sparrow server process serving the built web client, on its own port and data dir. */
export class ServerProcess {
  private child: ChildProcess | undefined;
  readonly log: string[] = [];

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly extraEnv: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * `dataDir`: a data folder the process shares with others, as the nodes of one cluster share
   * their uploads (a new one of its own when absent). `extraEnv` may name a DATABASE_URL and a
   * REDIS_URL; the process uses SQLite and no Redis otherwise.
   */
  static async start(extraEnv: Record<string, string> = {}, dataDir?: string): Promise<ServerProcess> {
    if (!fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) {
      throw new Error('packages/web/dist is missing: run `npm run build -w @sparrow/web` first');
    }
    dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-e2e-'));
    const server = new ServerProcess(await freePort(), dataDir, extraEnv);
    await server.boot();
    return server;
  }

  /** Starts (or restarts) the process and waits until it answers. */
  async boot(): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      WEB_DIST: path.join(root, 'packages/web/dist'),
      PUBLIC_URL: this.url,
      LOG_LEVEL: 'warn',
      CONFIG_POLL_MS: '500',
      // The suites sign many people up from this one address.
      REGISTER_PER_HOUR: '0',
      ...this.extraEnv,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    Object.assign(env, this.extraEnv);
    // What `npm start` runs: the compiled bundle (the suite's own, built once by global-setup.ts).
    const { e2eServerDist, serverNodeArgs } = await serverBuild();
    this.child = spawn(process.execPath, [...serverNodeArgs, path.join(e2eServerDist, 'main.js')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d: Buffer) => this.log.push(String(d)));
    this.child.stderr?.on('data', (d: Buffer) => this.log.push(String(d)));
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const res = await fetch(`${this.url}/common/Pub/getSystemInfo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`server did not start:\n${this.log.join('')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Calls an endpoint of this server as Sparrow's client does; answers `data`, or throws with the server's `msg`. */
  async post<T>(urlPath: string, body: unknown, token?: string): Promise<T> {
    const res = await fetch(`${this.url}${urlPath}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CLIENT_HEADER]: 'web',
        ...(token ? { authorization: token } : {}),
      },
      body: JSON.stringify(body),
    });
    const env = (await res.json()) as { code: number; msg: string; data: T };
    if (env.code !== 0) throw new Error(`${urlPath}: ${env.msg}`);
    return env.data;
  }

  /** Registers a user over HTTP and logs in; answers its id and session token. */
  async register(account: string, name: string): Promise<{ id: number; token: string; name: string }> {
    await this.post('/common/Pub/register', { account, password: PASSWORD, repassword: PASSWORD, realname: name });
    const login = await this.post<{ authToken: string; userInfo: { user_id: number } }>('/common/Pub/login', {
      account,
      password: PASSWORD,
    });
    return { id: login.userInfo.user_id, token: login.authToken, name };
  }

  /** Stops the process (SIGTERM) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    this.child = undefined;
  }

  /** Runs `npm run admin -- …` against this server's data. */
  async admin(...args: string[]): Promise<string> {
    const out: string[] = [];
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'packages/server/src/admin.ts'), ...args],
      {
        cwd: root,
        env: { ...process.env, DATA_DIR: this.dataDir, DATABASE_URL: '', ...this.extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', (d: Buffer) => out.push(String(d)));
    child.stderr.on('data', (d: Buffer) => out.push(String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`admin ${args.join(' ')} failed: ${out.join('')}`);
    return out.join('').trim();
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * Headless Debian Chromium with the flags that work on this kind of machine; `args` adds more (a
 * camera fed from a file: `--use-file-for-fake-video-capture=<y4m>`).
 */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      ...args,
    ],
  });
}

/** Content-Security-Policy violations seen by any page since the last `takeCspViolations`. */
const cspViolations: string[] = [];

/** The violations seen since the last call; e2e/setup.ts fails every test that caused one. */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

/** A browser context whose pages report every Content-Security-Policy violation to the suite. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.exposeBinding('__reportCspViolation', ({ page }, text: string) => {
    cspViolations.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  return context;
}

/** The width of the phone the suites are run at, px. */
export const PHONE_WIDTH = 375;

/** The size of the desk screen the suites are also run at (the wide layout's panes). */
export const DESK_SCREEN = { width: 1280, height: 800 } as const;

/**
 * The width the user paths run at: a phone's unless E2E_WIDTH says otherwise (scripts/test.mjs runs
 * the user-path suites a second time with E2E_WIDTH=1280, in the wide layout).
 */
export const SCREEN_WIDTH = Number(process.env.E2E_WIDTH) || PHONE_WIDTH;

/** Whether this run draws the wide layout: a test that only a phone has skips itself on it. */
export const WIDE = SCREEN_WIDTH >= 1024;

/**
 * A browser context for the user paths, in Chinese unless told otherwise: phone-sized (375×812), or
 * the desk's screen (1280×800) when the run is wide; touch either way, as a touchscreen laptop has it.
 */
export async function phoneContext(browser: Browser, locale = 'zh-CN'): Promise<BrowserContext> {
  return newContext(browser, {
    viewport: WIDE ? { width: SCREEN_WIDTH, height: DESK_SCREEN.height } : { width: SCREEN_WIDTH, height: 812 },
    deviceScaleFactor: 1,
    locale,
    isMobile: false,
    hasTouch: true,
  });
}

/** Saves a screenshot as a test artefact. */
export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * Waits for toasts and dialogs to finish animating: halfway through a fade their text is faint,
 * which neither the picture nor the contrast audit should judge.
 */
export async function settled(page: Page): Promise<void> {
  const styles = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('[class*="adm-"]'), (el) => el.getAttribute('style') ?? '').join('|'),
    );
  let before = await styles();
  for (let i = 0; i < 30; i++) {
    await page.waitForTimeout(80);
    const now = await styles();
    if (now === before) return;
    before = now;
  }
}

/**
 * Fails when a page shown on a phone's screen is wider than it: nothing may push the page sideways,
 * so the layout viewport stays the screen's.
 */
export async function fitsScreen(page: Page): Promise<void> {
  const { wide, screen } = await page.evaluate(() => ({
    wide: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  if (screen <= PHONE_WIDTH && wide > screen)
    throw new Error(`${page.url()} is ${wide} px wide on a ${screen} px screen`);
}

/**
 * axe-core's violations on the page. The engine is put into the page once per document and run
 * there (axe.run); @axe-core/playwright's analyze() puts it in again on every call and finishes in a
 * new blank page, which measured 2.5 s a call against 0.6 s this way (e2e/group.e2e.ts, 17 audits).
 */
async function axeViolations(page: Page): Promise<axe.Result[]> {
  type Window = { axe?: typeof axe };
  if (!(await page.evaluate(() => (window as Window).axe !== undefined))) await page.evaluate(axe.source);
  return page.evaluate(() =>
    (window as Window).axe!.run({ exclude: [['.adm-toast-mask']] }, { resultTypes: ['violations'] }).then((r) =>
      // Only what the caller reads crosses back.
      r.violations.map((v) => ({ ...v, nodes: v.nodes.map((n) => ({ ...n, any: [], all: [], none: [] })) })),
    ),
  );
}

/**
 * Fails when the page is wider than a phone screen it is shown on, or with the list of serious or
 * critical axe-core violations on it.
 */
export async function expectAccessible(page: Page): Promise<void> {
  // Sheets and dialogs animate in; half-drawn text would fail the contrast rule. Toasts fade out
  // while the audit runs, so they are left out (settled, they are white on 70 % black). Dialogs fade
  // in by a script (antd-mobile's springs), which the page's animations do not list: settled waits
  // for their styles to stop changing.
  await settled(page);
  await page
    .evaluate(() =>
      Promise.race([
        Promise.all(document.getAnimations().map((a) => a.finished)),
        new Promise((r) => setTimeout(r, 2000)),
      ]),
    )
    .catch(() => undefined);
  await fitsScreen(page);
  const violations = await axeViolations(page);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) {
    const lines = bad.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
    throw new Error(`accessibility violations on ${page.url()}:\n${lines.join('\n')}`);
  }
}

/** The password of every user the suites make. */
export const PASSWORD = 'secret123';

/**
 * Resolves once the page's socket is bound, so pushes reach it: the server answers the first
 * ping and the bind each with a pong, and the second pong follows both.
 */
export function socketBound(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      let pongs = 0;
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && /"type":"pong"/.test(payload) && ++pongs === 2) resolve();
      });
    });
  });
}

/** Someone using Sparrow in a browser of their own. */
export interface Person {
  account: string;
  name: string;
  id: number;
  token: string;
  context: BrowserContext;
  page: Page;
}

/**
 * Waits for the login page's password form (Chinese interface): a wide screen offers the QR code
 * first, and the form a tap away.
 */
export async function passwordForm(page: Page): Promise<void> {
  const field = page.getByLabel('账号', { exact: true });
  const byPassword = page.getByRole('button', { name: /密码登录/ });
  await field.or(byPassword).first().waitFor(WAIT);
  if (await byPassword.isVisible()) await byPassword.click();
  await visible(field);
}

/**
 * The page being looked at: the whole screen on a phone; in the wide layout the right panel while
 * it is open, else the middle pane. Not the list beside them, which repeats a chat's last line and
 * has a title and buttons of its own.
 */
export function pageArea(page: Page): Locator {
  const token = (name: string) => `contains(concat(" ", normalize-space(@class), " "), " ${name} ")`;
  return page.locator(
    `xpath=//aside[${token('desk-panel')}]` +
      ` | //div[${token('desk-middle')}][not(following-sibling::aside[${token('desk-panel')}])]` +
      ` | /html/body[not(.//div[${token('desk')}])]`,
  );
}

/**
 * Signs in through the login page (Chinese interface), as a person would: home shown, socket bound.
 * `server`: the server, or the proxy in front of several (its address is all this uses).
 */
export async function signIn(server: Pick<ServerProcess, 'url'>, page: Page, account: string): Promise<void> {
  const bound = socketBound(page);
  await page.goto(`${server.url}/#/pages/login/login`);
  await passwordForm(page);
  await page.getByLabel('账号', { exact: true }).fill(account);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await visible(page.getByRole('navigation', { name: '主导航' }));
  await bound;
}

/** Registers someone and opens a phone-sized browser for them, signed in unless told otherwise. */
export async function newPerson(
  server: ServerProcess,
  browser: Browser,
  account: string,
  name: string,
  opts: { signedIn?: boolean } = {},
): Promise<Person> {
  const { id, token } = await server.register(account, name);
  const context = await phoneContext(browser);
  const page = await context.newPage();
  if (opts.signedIn !== false) await signIn(server, page, account);
  return { account, name, id, token, context, page };
}

/** Makes `a` and `b` friends through the API: `a` asks, `b` accepts `a`'s request. */
export async function befriend(
  server: ServerProcess,
  a: { id: number; token: string },
  b: { id: number; token: string },
): Promise<void> {
  await server.post('/enterprise/friend/add', { user_id: b.id, remark: '' }, a.token);
  const requests = await server.post<Array<{ friend_id: number; create_user_info: { user_id: number } }>>(
    '/enterprise/friend/index',
    { is_mine: 0 },
    b.token,
  );
  const request = requests.find((r) => r.create_user_info.user_id === a.id);
  if (!request) throw new Error('no friend request');
  await server.post('/enterprise/friend/update', { friend_id: request.friend_id, status: 1 }, b.token);
}

/** How long the suites wait for something a user would see. */
export const WAIT = { timeout: 20_000 };

/** Holds the pointer still on an element past the long-press time. */
export async function longPress(page: Page, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to press');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(500);
  await page.mouse.up();
}

export async function visible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible', ...WAIT });
}

export async function hidden(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'hidden', ...WAIT });
}

/**
 * Waits until no toast is on screen (a fading one would fail the contrast audit). Counted rather
 * than waited for as one element: a loading toast may show beside the one that told of a result.
 */
export async function noToasts(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.adm-toast-main:visible').count(), WAIT).toBe(0);
}

/** A toast saying `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.adm-toast-main').filter({ hasText: text });
}
