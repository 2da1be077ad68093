import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** coturn from Debian's `coturn` package. */
export const TURNSERVER = process.env.TURNSERVER_PATH ?? '/usr/bin/turnserver';

/** A port nothing listens on now, on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** A coturn on loopback checking REST credentials (use-auth-secret), as docs/operations.md runs it beside Sparrow. */
export class TurnServer {
  readonly log: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly secret: string,
    private readonly dir: string,
  ) {}

  /** TURN_URLS for the Sparrow server. */
  get urls(): string {
    return `turn:127.0.0.1:${this.port}?transport=udp,turn:127.0.0.1:${this.port}?transport=tcp`;
  }

  static async start(): Promise<TurnServer> {
    if (!fs.existsSync(TURNSERVER)) throw new Error(`no coturn at ${TURNSERVER} (apt-get install coturn)`);
    const port = await freePort();
    const relayFrom = 40_000 + (port % 500) * 50;
    const secret = randomBytes(16).toString('hex');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-turn-'));
    const child = spawn(
      TURNSERVER,
      [
        '-n',
        '--listening-ip=127.0.0.1',
        '--relay-ip=127.0.0.1',
        `--listening-port=${port}`,
        `--min-port=${relayFrom}`,
        `--max-port=${relayFrom + 40}`,
        '--use-auth-secret',
        `--static-auth-secret=${secret}`,
        '--realm=sparrow.test',
        '--fingerprint',
        // Both relay addresses are 127.0.0.1: the peers of a relayed call here are on loopback.
        '--allow-loopback-peers',
        '--no-cli',
        '--no-tls',
        '--no-dtls',
        '--no-software-attribute',
        `--userdb=${path.join(dir, 'turndb')}`,
        `--pidfile=${path.join(dir, 'turn.pid')}`,
        '--log-file=stdout',
        '--simple-log',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const turn = new TurnServer(child, port, secret, dir);
    child.stdout?.on('data', (d: Buffer) => turn.log.push(String(d)));
    child.stderr?.on('data', (d: Buffer) => turn.log.push(String(d)));
    const deadline = Date.now() + 10_000;
    while (!(await listening(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await turn.stop();
        throw new Error(`coturn did not start:\n${turn.log.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return turn;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Whether something accepts connections on this loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}
