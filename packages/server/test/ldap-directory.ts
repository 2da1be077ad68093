import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Attribute, Change, Client } from 'ldapts';
import { describe } from 'vitest';

/** OpenLDAP's server from Debian's `slapd` package (`.ci/run` installs it). */
export const SLAPD = process.env.SLAPD_PATH ?? '/usr/sbin/slapd';
const SLAPADD = path.join(path.dirname(SLAPD), 'slapadd');

export const SUFFIX = 'dc=example,dc=org';
export const PEOPLE = `ou=people,${SUFFIX}`;
/** The directory's manager, for the tests' own changes to entries. */
export const ROOT_DN = `cn=admin,${SUFFIX}`;
/** The service account a search-then-bind setting binds as: it may read people, not change them. */
export const READER_DN = `cn=reader,${SUFFIX}`;

/** A person of the test directory. */
export interface DirectoryPerson {
  uid: string;
  password: string;
  displayName: string;
  mail: string;
  department: string;
  /** `employeeType: disabled`, which the tests' setting names as the disabled rule. */
  disabled?: boolean;
}

/** The people every test directory starts with. */
export const PEOPLE_LIST: DirectoryPerson[] = [
  {
    uid: 'alice',
    password: 'wonder123',
    displayName: 'Alice Liddell',
    mail: 'alice@example.org',
    department: '研发部',
  },
  {
    uid: 'bob.builder',
    password: 'canwefix1',
    displayName: 'Bob Builder',
    mail: 'bob@example.org',
    department: 'Works',
  },
  {
    uid: 'carol',
    password: 'carol1234',
    displayName: 'Carol Gone',
    mail: 'carol@example.org',
    department: 'Works',
    disabled: true,
  },
  { uid: 'dave', password: 'dave12345', displayName: 'Dave Twin', mail: 'dave@example.org', department: 'Works' },
  { uid: 'erin', password: 'erin12345', displayName: 'Erin Web', mail: 'erin@example.org', department: '市场部' },
];

/**
 * Suites that need slapd: run when it is installed; with CI=true its absence fails the run, as
 * scripts/test.mjs says.
 */
export function describeWithSlapd(name: string, fn: () => void): void {
  if (fs.existsSync(SLAPD)) describe(name, fn);
  else if (process.env.CI === 'true') throw new Error(`CI=true but there is no slapd at ${SLAPD}`);
  else describe.skip(`${name} (no slapd at ${SLAPD})`, () => undefined);
}

/** `{SSHA}`: SHA-1 of the password and a salt, then the salt, in base64 (as slappasswd makes it). */
export function ssha(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function entryOf(p: DirectoryPerson): string {
  const [given, ...rest] = p.displayName.split(' ');
  return [
    `dn: uid=${p.uid},${PEOPLE}`,
    'objectClass: inetOrgPerson',
    `uid: ${p.uid}`,
    `cn: ${p.displayName}`,
    `sn: ${rest.join(' ') || given}`,
    `displayName:: ${Buffer.from(p.displayName).toString('base64')}`,
    `mail: ${p.mail}`,
    `departmentNumber:: ${Buffer.from(p.department).toString('base64')}`,
    ...(p.disabled ? ['employeeType: disabled'] : []),
    `userPassword: ${ssha(p.password)}`,
    '',
  ].join('\n');
}

/**
 * A real OpenLDAP of a suite's own: a temporary directory with a slapd.conf (mdb, suffix
 * dc=example,dc=org), a small directory loaded with slapadd, and slapd listening on loopback for
 * `ldap://` (StartTLS too) and `ldaps://`, with a self-signed certificate made by openssl.
 */
export class TestDirectory {
  readonly log: string[] = [];
  readonly rootPassword = randomBytes(9).toString('base64url');
  readonly readerPassword = randomBytes(9).toString('base64url');

  private constructor(
    private child: ChildProcess | undefined,
    readonly port: number,
    readonly tlsPort: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `ldap://127.0.0.1:${this.port}`;
  }

  get tlsUrl(): string {
    return `ldaps://127.0.0.1:${this.tlsPort}`;
  }

  /** The self-signed certificate slapd presents (PEM). */
  get certificate(): string {
    return fs.readFileSync(path.join(this.dir, 'cert.pem'), 'utf8');
  }

  static async start(people: DirectoryPerson[] = PEOPLE_LIST): Promise<TestDirectory> {
    if (!fs.existsSync(SLAPD)) throw new Error(`no slapd at ${SLAPD} (apt-get install slapd ldap-utils)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-ldap-'));
    const directory = new TestDirectory(undefined, await freePort(), await freePort(), dir);
    fs.mkdirSync(path.join(dir, 'db'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const schema = '/etc/ldap/schema';
    fs.writeFileSync(
      path.join(dir, 'slapd.conf'),
      [
        `include ${schema}/core.schema`,
        `include ${schema}/cosine.schema`,
        `include ${schema}/inetorgperson.schema`,
        'modulepath /usr/lib/ldap',
        'moduleload back_mdb',
        `pidfile ${path.join(dir, 'slapd.pid')}`,
        `TLSCertificateFile ${path.join(dir, 'cert.pem')}`,
        `TLSCertificateKeyFile ${path.join(dir, 'key.pem')}`,
        'database mdb',
        'maxsize 10485760',
        `suffix "${SUFFIX}"`,
        `rootdn "${ROOT_DN}"`,
        `rootpw ${directory.rootPassword}`,
        `directory ${path.join(dir, 'db')}`,
        // A person's password: checked by a bind, never read. Entries: read by anyone bound, not by anonymous.
        'access to attrs=userPassword by anonymous auth by self write by * none',
        'access to * by users read by * none',
        '',
      ].join('\n'),
    );
    const ldif = [
      [`dn: ${SUFFIX}`, 'objectClass: dcObject', 'objectClass: organization', 'o: Example', 'dc: example', ''].join(
        '\n',
      ),
      [`dn: ${PEOPLE}`, 'objectClass: organizationalUnit', 'ou: people', ''].join('\n'),
      [
        `dn: ${READER_DN}`,
        'objectClass: organizationalRole',
        'objectClass: simpleSecurityObject',
        'cn: reader',
        `userPassword: ${ssha(directory.readerPassword)}`,
        '',
      ].join('\n'),
      ...people.map(entryOf),
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'data.ldif'), ldif);
    execFileSync(SLAPADD, ['-f', path.join(dir, 'slapd.conf'), '-l', path.join(dir, 'data.ldif')], { stdio: 'pipe' });
    await directory.run();
    return directory;
  }

  /** Starts slapd (again, on the same ports and data) and waits until it answers a bind. */
  async run(): Promise<void> {
    const child = spawn(
      SLAPD,
      ['-d', '0', '-f', path.join(this.dir, 'slapd.conf'), '-h', `${this.url}/ ${this.tlsUrl}/`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => this.log.push(String(d)));
    child.stderr?.on('data', (d: Buffer) => this.log.push(String(d)));
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (await this.answers()) return;
      if (child.exitCode !== null || Date.now() > deadline) {
        await this.stop();
        throw new Error(`slapd did not start:\n${this.log.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async answers(): Promise<boolean> {
    const client = new Client({ url: this.url, timeout: 1000, connectTimeout: 1000 });
    try {
      await client.bind(ROOT_DN, this.rootPassword);
      return true;
    } catch {
      return false;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  /** Runs `work` bound as the directory's manager. */
  async asRoot<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ url: this.url, timeout: 5000, connectTimeout: 5000 });
    try {
      await client.bind(ROOT_DN, this.rootPassword);
      return await work(client);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  /** Replaces one attribute of a person's entry. */
  async replace(uid: string, attribute: string, value: string): Promise<void> {
    await this.asRoot((c) =>
      c.modify(
        `uid=${uid},${PEOPLE}`,
        new Change({ operation: 'replace', modification: new Attribute({ type: attribute, values: [value] }) }),
      ),
    );
  }

  /** Adds a person to the running directory. */
  async add(p: DirectoryPerson): Promise<void> {
    await this.asRoot((c) =>
      c.add(`uid=${p.uid},${PEOPLE}`, {
        objectClass: 'inetOrgPerson',
        uid: p.uid,
        cn: p.displayName,
        sn: p.displayName,
        displayName: p.displayName,
        mail: p.mail,
        departmentNumber: p.department,
        userPassword: ssha(p.password),
        ...(p.disabled && { employeeType: 'disabled' }),
      }),
    );
  }

  /** The entry's entryUUID, as a sign-in links it. */
  async uuidOf(uid: string): Promise<string> {
    return this.asRoot(async (c) => {
      const { searchEntries } = await c.search(`uid=${uid},${PEOPLE}`, { scope: 'base', attributes: ['entryUUID'] });
      return String(searchEntries[0]?.entryUUID ?? '').toLowerCase();
    });
  }

  /** Stops slapd and waits until it is gone; the data stays for `run`. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** Stops slapd and removes its files. */
  async close(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
