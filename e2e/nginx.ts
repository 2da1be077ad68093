import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, listening } from '../packages/server/test/turn';

/** What a request through the proxy answered. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** nginx from Debian's `nginx` package (1.22: http_ssl and http_v2). */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The configuration Sparrow ships and documents (docs/operations.md "Behind nginx (TLS)"). */
export const SHIPPED_CONF = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../deploy/nginx/sparrow.conf');

/** Replaces what `pattern` finds in `text`, failing when it finds it other than `times` times. */
function change(text: string, pattern: RegExp, by: string, times = 1): string {
  const found = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))?.length ?? 0;
  if (found !== times) throw new Error(`deploy/nginx/sparrow.conf: ${pattern} found ${found} times, not ${times}`);
  return text.replace(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`), by);
}

/**
 * The shipped configuration as the suite runs it: the same file with only the host's parts
 * changed: the nodes' ports, loopback listen addresses on free ports, the certificate's and the
 * log's folder.
 */
export function localConf(
  shipped: string,
  dir: string,
  ports: { https: number; http: number; nodes: [number, number] },
): string {
  let conf = shipped;
  ports.nodes.forEach((port, i) => {
    conf = change(conf, new RegExp(`server 127\\.0\\.0\\.1:${8000 + i} `), `server 127.0.0.1:${port} `);
  });
  conf = change(conf, /^\s*listen \[::\]:\d+.*\n/m, '', 2);
  conf = change(conf, /listen 80;/, `listen 127.0.0.1:${ports.http};`);
  conf = change(conf, /listen 443 ssl http2;/, `listen 127.0.0.1:${ports.https} ssl http2;`);
  conf = change(conf, /\/etc\/letsencrypt\/live\/chat\.example\.org\//, `${dir}/`, 2);
  conf = change(conf, /\/var\/log\/nginx\//, `${dir}/`);
  return conf;
}

/**
 * nginx in front of Sparrow's nodes, with deploy/nginx/sparrow.conf and a self-signed certificate
 * for `localhost` made at start; run as this user on loopback, everything it writes in a temp dir.
 */
export class NginxFront {
  readonly log: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly httpPort: number,
    readonly dir: string,
    /** The certificate, which the suite's own requests trust. */
    readonly cert: string,
  ) {}

  /** The address users reach Sparrow at. */
  get url(): string {
    return `https://localhost:${this.port}`;
  }

  static async start(nodePorts: [number, number]): Promise<NginxFront> {
    if (!fs.existsSync(NGINX)) throw new Error(`no nginx at ${NGINX} (apt-get install nginx)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-nginx-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'privkey.pem'),
        '-out',
        path.join(dir, 'fullchain.pem'),
      ],
      { stdio: 'ignore' },
    );
    const ports = { https: await freePort(), http: await freePort(), nodes: nodePorts };
    fs.writeFileSync(path.join(dir, 'sparrow.conf'), localConf(fs.readFileSync(SHIPPED_CONF, 'utf8'), dir, ports));
    // The main file a distribution would have: the process's own paths, then the shipped file.
    const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        // Started by root, nginx would run its workers as nobody, who cannot write this folder.
        ...(process.getuid?.() === 0 ? ['user root;'] : []),
        'worker_processes 1;',
        `pid ${path.join(dir, 'nginx.pid')};`,
        `error_log ${path.join(dir, 'error.log')} notice;`,
        'events { worker_connections 1024; }',
        'http {',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
        `include ${path.join(dir, 'sparrow.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const child = spawn(
      NGINX,
      ['-e', path.join(dir, 'error.log'), '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const front = new NginxFront(
      child,
      ports.https,
      ports.http,
      dir,
      fs.readFileSync(path.join(dir, 'fullchain.pem'), 'utf8'),
    );
    child.stdout?.on('data', (d: Buffer) => front.log.push(String(d)));
    child.stderr?.on('data', (d: Buffer) => front.log.push(String(d)));
    const deadline = Date.now() + 10_000;
    while (!(await listening(ports.https))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        const errors = fs.existsSync(path.join(dir, 'error.log'))
          ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8')
          : '';
        await front.stop();
        throw new Error(`nginx did not start:\n${front.log.join('')}${errors}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return front;
  }

  /** The access log's lines so far (deploy/nginx/sparrow.conf's `sparrow` format). */
  accessLog(): string[] {
    const file = path.join(this.dir, 'sparrow.access.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  }

  /** A request over HTTP/1.1 through the proxy's TLS port, trusting its certificate. */
  request(urlPath: string, opts: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
    return this.exchange(
      https.request({
        host: '127.0.0.1',
        port: this.port,
        path: urlPath,
        method: opts.method ?? 'GET',
        headers: { host: `localhost:${this.port}`, ...opts.headers },
        ca: this.cert,
        servername: 'localhost',
      }),
      opts.body,
    );
  }

  /** A GET of the plain-http port, which only sends browsers to https. */
  plainRequest(urlPath: string) {
    return this.exchange(
      http.request({
        host: '127.0.0.1',
        port: this.httpPort,
        path: urlPath,
        headers: { host: `localhost:${this.httpPort}` },
      }),
    );
  }

  private exchange(req: http.ClientRequest, body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
