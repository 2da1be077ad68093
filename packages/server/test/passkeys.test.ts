import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import {
  ErrorCodes,
  PASSKEY_CHALLENGE_MS,
  translate,
  type Envelope,
  type ErrorName,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
} from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { describeEachDb, signUp, startServer, type CallOptions, type TestServer } from './harness';

/**
 * Passkeys (issue 42 point 3) against a software authenticator written here: an ES256 key of
 * node:crypto, its public key in COSE, an attestation of format 'none' in CBOR, authenticator data
 * with the flags UP and UV and a signature counter, and assertions signed over the authenticator
 * data and the client data's hash, as WebAuthn's authenticators and browsers make them. The
 * server's @simplewebauthn/server checks them as it checks a browser's.
 */

const HOST = 'localhost:8000';
const ORIGIN = `http://${HOST}`;
const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

// --- A software authenticator ----------------------------------------------------------------------

/** CBOR (RFC 8949) of what an attestation holds: whole numbers, text, bytes and maps. */
function cbor(value: number | string | Uint8Array | Map<number | string, unknown>): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [...value].flatMap(([k, v]) => [cbor(k), cbor(v as Parameters<typeof cbor>[0])]);
  return Buffer.concat([head(5, value.size), ...parts]);
}

const b64u = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest();

/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

interface Credential {
  id: Buffer;
  key: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

/** A platform authenticator holding discoverable ES256 credentials, as Chromium's virtual one does. */
class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  /** The counter each new signature carries; 0 for an authenticator that counts nothing. */
  counting = true;

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** `navigator.credentials.create()`: a new credential for the options, answered as RegistrationResponseJSON. */
  create(options: PasskeyCreationOptions, origin = ORIGIN, reuse?: Credential) {
    const rpId = options.rp.id!;
    const cred = reuse ?? this.make(rpId, options.user.id);
    const jwk = cred.key.export({ format: 'jwk' });
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(cred.id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, cred.id, cose]);
    const authData = this.authData(rpId, UP | UV | AT, 0, attested);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin,
      crossOrigin: false,
    });
    return {
      credential: cred,
      json: {
        id: b64u(cred.id),
        rawId: b64u(cred.id),
        response: {
          clientDataJSON: b64u(Buffer.from(clientData)),
          attestationObject: b64u(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        type: 'public-key',
      },
    };
  }

  private make(rpId: string, userHandle: string): Credential {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cred = { id: randomBytes(16), key: privateKey, rpId, userHandle, counter: 0 };
    this.credentials.push(cred);
    return cred;
  }

  /**
   * `navigator.credentials.get()`: a signature by `cred` (or the first credential the options
   * allow, or any this authenticator holds for the site), answered as AuthenticationResponseJSON.
   */
  get(options: PasskeyRequestOptions, origin = ORIGIN, cred?: Credential, counter?: number) {
    const allowed = options.allowCredentials ?? [];
    const use =
      cred ??
      this.credentials.find(
        (c) => c.rpId === options.rpId && (allowed.length === 0 || allowed.some((a) => a.id === b64u(c.id))),
      );
    if (!use) throw new Error('no credential for these options');
    if (counter !== undefined) use.counter = counter;
    else if (this.counting) use.counter += 1;
    const authData = this.authData(use.rpId, UP | UV, this.counting || counter !== undefined ? use.counter : 0);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin }));
    const signature = sign('sha256', Buffer.concat([authData, sha(clientData)]), use.key);
    return {
      id: b64u(use.id),
      rawId: b64u(use.id),
      response: {
        clientDataJSON: b64u(clientData),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: use.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      type: 'public-key',
    };
  }
}

// --- The suite ---------------------------------------------------------------------------------

type User = Awaited<ReturnType<typeof signUp>>;

/** Every account of the suite signs up with this password; adding and removing a passkey ask for it. */
const PROOF = { password: 'secret123' };

function expectRefused(res: Envelope<any>, name: ErrorName) {
  expect({ code: res.code, msg: res.msg }).toEqual({ code: ErrorCodes[name], msg: translate('en', `errors.${name}`) });
}

describeEachDb('passkeys', (target) => {
  let server: TestServer;
  let n = 0;
  let ip = 0;
  const fresh = (name: string): Promise<User> => signUp(server, `${name}${++n}pk`, 'secret123', `${name}${n}`);
  /** A call from a browser at ORIGIN, from an address of its own per test unless named. */
  const from = (o: CallOptions = {}): CallOptions => ({
    ip: `10.1.0.${ip}`,
    ...o,
    headers: { host: HOST, 'user-agent': DESKTOP_UA, ...o.headers },
  });
  const as = (u: User, o: CallOptions = {}) => from({ token: u.token, ...o });

  /** Adds a passkey made by `auth` to `u`'s account; answers the credential and the added passkey. */
  async function addPasskey(u: User, auth: SoftAuthenticator, body: object = {}, o: CallOptions = {}) {
    const options = (await server.call('passkeyRegisterOptions', PROOF, as(u, o))).data as PasskeyCreationOptions;
    const made = auth.create(options);
    const res = await server.call('passkeyRegister', { credential: made.json, ...body }, as(u, o));
    expect(res.code, res.msg).toBe(0);
    return { credential: made.credential, passkey: res.data as { id: number; name: string } };
  }

  const loginOptions = async (o: CallOptions = {}) => {
    const res = await server.call('passkeyLoginOptions', {}, from(o));
    expect(res.code, res.msg).toBe(0);
    return res.data as PasskeyRequestOptions;
  };

  const twoStepOf = async (userId: number) =>
    (await server.ctx.db.selectFrom('users').select('two_step').where('id', '=', userId).executeTakeFirstOrThrow())
      .two_step;

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('adds a discoverable, user-verified passkey: listed by the device’s name, two-step on, audited', async () => {
    ip += 1;
    const alice = await fresh('alice');
    const auth = new SoftAuthenticator();
    const options = (await server.call('passkeyRegisterOptions', PROOF, as(alice))).data as PasskeyCreationOptions;
    expect(options.rp).toEqual({ id: 'localhost', name: 'Sparrow' });
    expect(options.user.name).toBe(`alice${n}pk`);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.excludeCredentials).toEqual([]);
    expect(options.pubKeyCredParams.map((p) => p.alg)).toContain(-7);

    const made = auth.create(options);
    const res = await server.call('passkeyRegister', { credential: made.json }, as(alice));
    expect({ code: res.code, msg: res.msg }).toEqual({ code: 0, msg: translate('en', 'ok.passkeyAdded') });
    expect(res.data).toEqual({
      id: expect.any(Number),
      name: 'Chrome on Linux',
      create_time: server.clock.now(),
      last_used: 0,
      synced: false,
    });
    expect((await server.call('passkeyList', {}, as(alice))).data).toEqual([res.data]);
    expect(await twoStepOf(alice.userId)).toBe(1);
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select(['admin_id', 'action', 'target'])
      .where('admin_id', '=', alice.userId)
      .execute();
    expect(audit).toEqual([{ admin_id: alice.userId, action: 'passkeyAdd', target: `user:${alice.userId}` }]);

    // The same user is the same handle, and the passkey they have is excluded from a second.
    const again = (await server.call('passkeyRegisterOptions', PROOF, as(alice))).data as PasskeyCreationOptions;
    expect(again.user.id).toBe(options.user.id);
    expect(again.excludeCredentials).toEqual([{ id: made.json.id, type: 'public-key', transports: ['internal'] }]);
    // Another user's handle is another.
    const bob = await fresh('bob');
    const theirs = (await server.call('passkeyRegisterOptions', PROOF, as(bob))).data as PasskeyCreationOptions;
    expect(theirs.user.id).not.toBe(options.user.id);

    // A name of one's own is kept, in any language.
    const named = await addPasskey(alice, new SoftAuthenticator(), { name: '工作电脑' });
    expect(named.passkey.name).toBe('工作电脑');
  });

  it('signs in without a password: any passkey of the site, a session made by passkey, the counter recorded', async () => {
    ip += 1;
    const carol = await fresh('carol');
    const auth = new SoftAuthenticator();
    const { passkey } = await addPasskey(carol, auth);

    const options = await loginOptions();
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe('localhost');
    server.clock.advance(1000);
    const res = await server.call('passkeyLogin', { credential: auth.get(options) }, from());
    expect({ code: res.code, msg: res.msg }).toEqual({ code: 0, msg: translate('en', 'ok.login') });
    expect(res.data.userInfo.user_id).toBe(carol.userId);
    // No second step: a passkey is both factors, though carol's two_step is on.
    expect(await twoStepOf(carol.userId)).toBe(1);
    const me = await server.call('checkuser', {}, { token: res.data.authToken });
    expect(me.data.user_id).toBe(carol.userId);
    const session = await server.ctx.db
      .selectFrom('sessions')
      .select(['via', 'user_agent'])
      .where('id', '=', res.data.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ via: 'passkey', user_agent: DESKTOP_UA });
    const [listed] = (await server.call('passkeyList', {}, as(carol))).data;
    expect(listed).toMatchObject({ id: passkey.id, last_used: server.clock.now() });
    const row = await server.ctx.db
      .selectFrom('passkeys')
      .select('counter')
      .where('id', '=', passkey.id)
      .executeTakeFirstOrThrow();
    expect(row.counter).toBe(1);
  });

  it('a challenge is good once: the same answer again, for sign-in or for adding, is refused', async () => {
    ip += 1;
    const dan = await fresh('dan');
    const auth = new SoftAuthenticator();
    const options = (await server.call('passkeyRegisterOptions', PROOF, as(dan))).data as PasskeyCreationOptions;
    const made = auth.create(options);
    expect((await server.call('passkeyRegister', { credential: made.json }, as(dan))).code).toBe(0);
    expectRefused(await server.call('passkeyRegister', { credential: made.json }, as(dan)), 'PasskeyInvalid');

    const signed = auth.get(await loginOptions());
    expect((await server.call('passkeyLogin', { credential: signed }, from())).code).toBe(0);
    expectRefused(await server.call('passkeyLogin', { credential: signed }, from()), 'PasskeyInvalid');
    // Signed again by the authenticator over the used challenge (a newer counter): still refused.
    const resigned = auth.get({ challenge: challengeOf(signed), rpId: 'localhost' });
    expectRefused(await server.call('passkeyLogin', { credential: resigned }, from()), 'PasskeyInvalid');

    // A sign-in challenge does not add a passkey, nor a registration's sign in.
    const loginChallenge = await loginOptions();
    const other = await fresh('other');
    const wrongUse = new SoftAuthenticator().create({ ...options, challenge: loginChallenge.challenge });
    expectRefused(await server.call('passkeyRegister', { credential: wrongUse.json }, as(other)), 'PasskeyInvalid');
    const regChallenge = (await server.call('passkeyRegisterOptions', PROOF, as(dan))).data as PasskeyCreationOptions;
    const crossed = auth.get({ challenge: regChallenge.challenge, rpId: 'localhost' });
    expectRefused(await server.call('passkeyLogin', { credential: crossed }, from()), 'PasskeyInvalid');
  });

  it('refuses a challenge past PASSKEY_CHALLENGE_MS, another site’s origin, another user’s challenge', async () => {
    ip += 1;
    const erin = await fresh('erin');
    const auth = new SoftAuthenticator();
    await addPasskey(erin, auth);

    const late = await loginOptions();
    server.clock.advance(PASSKEY_CHALLENGE_MS);
    expectRefused(await server.call('passkeyLogin', { credential: auth.get(late) }, from()), 'PasskeyInvalid');

    const phished = auth.get(await loginOptions(), 'http://evil.example');
    expectRefused(await server.call('passkeyLogin', { credential: phished }, from()), 'PasskeyInvalid');

    // Options asked for by one user are not another's to add a passkey with.
    const frank = await fresh('frank');
    const erins = (await server.call('passkeyRegisterOptions', PROOF, as(erin))).data as PasskeyCreationOptions;
    const made = new SoftAuthenticator().create(erins);
    expectRefused(await server.call('passkeyRegister', { credential: made.json }, as(frank)), 'PasskeyInvalid');
    expect((await server.call('passkeyList', {}, as(frank))).data).toEqual([]);

    // A credential this server never stored signs no one in.
    const stranger = new SoftAuthenticator();
    stranger.create((await server.call('passkeyRegisterOptions', PROOF, as(frank))).data as PasskeyCreationOptions);
    expectRefused(
      await server.call('passkeyLogin', { credential: stranger.get(await loginOptions()) }, from()),
      'PasskeyInvalid',
    );
  });

  it('a signature counter that does not move forward is refused; an authenticator counting nothing signs in', async () => {
    ip += 1;
    const gina = await fresh('gina');
    const auth = new SoftAuthenticator();
    const { credential } = await addPasskey(gina, auth);
    expect(
      (await server.call('passkeyLogin', { credential: auth.get(await loginOptions(), ORIGIN, credential, 5) }, from()))
        .code,
    ).toBe(0);
    // A copy of the key that signs with an older counter, or the same one.
    for (const counter of [3, 5]) {
      const cloned = auth.get(await loginOptions(), ORIGIN, credential, counter);
      expectRefused(await server.call('passkeyLogin', { credential: cloned }, from()), 'PasskeyInvalid');
    }
    expect(
      (await server.call('passkeyLogin', { credential: auth.get(await loginOptions(), ORIGIN, credential, 6) }, from()))
        .code,
    ).toBe(0);

    const hank = await fresh('hank');
    const flat = new SoftAuthenticator();
    flat.counting = false;
    await addPasskey(hank, flat);
    for (let i = 0; i < 2; i++) {
      const res = await server.call('passkeyLogin', { credential: flat.get(await loginOptions()) }, from());
      expect(res.code, res.msg).toBe(0);
      expect(res.data.userInfo.user_id).toBe(hank.userId);
    }
  });

  it('renames and removes only one’s own; another user’s passkey answers as a missing one', async () => {
    ip += 1;
    const [ivy, jack] = [await fresh('ivy'), await fresh('jack')];
    const { passkey } = await addPasskey(ivy, new SoftAuthenticator());
    for (const id of [passkey.id, 999_999_999]) {
      expectRefused(await server.call('passkeyRename', { id, name: 'mine' }, as(jack)), 'NotFound');
      expectRefused(await server.call('passkeyRemove', { id, ...PROOF }, as(jack)), 'NotFound');
    }
    expect((await server.call('passkeyList', {}, as(ivy))).data).toEqual([passkey]);

    expect((await server.call('passkeyRename', { id: passkey.id, name: '  手机  ' }, as(ivy))).code).toBe(0);
    expect((await server.call('passkeyList', {}, as(ivy))).data).toEqual([{ ...passkey, name: '手机' }]);
  });

  it('removing the last passkey turns two-step off (no authenticator app), audited; a removed passkey signs no one in', async () => {
    ip += 1;
    const kim = await fresh('kim');
    const auth = new SoftAuthenticator();
    const first = await addPasskey(kim, auth);
    const second = await addPasskey(kim, new SoftAuthenticator());
    expect(await twoStepOf(kim.userId)).toBe(1);
    const removed = await server.call('passkeyRemove', { id: first.passkey.id, ...PROOF }, as(kim));
    expect({ code: removed.code, msg: removed.msg }).toEqual({ code: 0, msg: translate('en', 'ok.passkeyRemoved') });
    expect(await twoStepOf(kim.userId)).toBe(1);
    expectRefused(
      await server.call(
        'passkeyLogin',
        { credential: auth.get(await loginOptions(), ORIGIN, first.credential) },
        from(),
      ),
      'PasskeyInvalid',
    );
    expect((await server.call('passkeyRemove', { id: second.passkey.id, ...PROOF }, as(kim))).code).toBe(0);
    expect(await twoStepOf(kim.userId)).toBe(0);
    expect((await server.call('passkeyList', {}, as(kim))).data).toEqual([]);
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('admin_id', '=', kim.userId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['passkeyAdd', 'passkeyAdd', 'passkeyRemove', 'passkeyRemove']);
  });

  it('the same credential registered several times at once makes one row; the others answer PasskeyExists', async () => {
    ip += 1;
    const lee = await fresh('lee');
    const auth = new SoftAuthenticator();
    for (let round = 0; round < 3; round++) {
      // One credential answering several options (each with a challenge of its own), sent at once.
      const all = await Promise.all(
        Array.from({ length: 6 }, async () => (await server.call('passkeyRegisterOptions', PROOF, as(lee))).data),
      );
      const first = auth.create(all[0] as PasskeyCreationOptions);
      const answers = await Promise.all(
        all.map((o, i) =>
          server.call(
            'passkeyRegister',
            { credential: (i === 0 ? first : auth.create(o as PasskeyCreationOptions, ORIGIN, first.credential)).json },
            as(lee),
          ),
        ),
      );
      expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
      for (const a of answers.filter((x) => x.code !== 0)) expectRefused(a, 'PasskeyExists');
    }
    const rows = await server.ctx.db.selectFrom('passkeys').select('id').where('user_id', '=', lee.userId).execute();
    expect(rows).toHaveLength(3);
    // The credential of someone else's passkey is not added to another account either.
    const mia = await fresh('mia');
    const theirs = (await server.call('passkeyRegisterOptions', PROOF, as(mia))).data as PasskeyCreationOptions;
    const copy = auth.create(theirs, ORIGIN, auth.credentials[0]);
    expectRefused(await server.call('passkeyRegister', { credential: copy.json }, as(mia)), 'PasskeyExists');
  });

  it('one signature sent several times at once signs in once', async () => {
    ip += 1;
    const ned = await fresh('ned');
    const auth = new SoftAuthenticator();
    await addPasskey(ned, auth);
    for (let round = 0; round < 3; round++) {
      // The losers count as failed sign-ins of the address: each round from an address of its own.
      ip += 1;
      const signed = auth.get(await loginOptions());
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => server.call('passkeyLogin', { credential: signed }, from())),
      );
      expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    }
    const sessions = await server.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', ned.userId)
      .where('via', '=', 'passkey')
      .execute();
    expect(sessions).toHaveLength(3);
  });

  it('failed passkey sign-ins lock out the credential at that address; an unknown credential, the address alone', async () => {
    const address = { ip: '10.7.7.7' };
    const { max } = server.ctx.config.get().rateLimits.loginFailures;
    const strangers = new SoftAuthenticator();
    strangers.create(
      (await server.call('passkeyRegisterOptions', PROOF, as(await fresh('oz')))).data as PasskeyCreationOptions,
    );
    for (let i = 0; i < max; i++) {
      const options = await loginOptions(address);
      expectRefused(
        await server.call('passkeyLogin', { credential: strangers.get(options) }, from(address)),
        'PasskeyInvalid',
      );
    }
    expect(
      (await server.call('passkeyLogin', { credential: strangers.get(await loginOptions(address)) }, from(address)))
        .code,
    ).toBe(ErrorCodes.LoginLocked);

    // Others behind the same address still sign in with their passkeys.
    const [pia, ravi] = [await fresh('pia'), await fresh('ravi')];
    const piasKey = new SoftAuthenticator();
    const { credential } = await addPasskey(pia, piasKey);
    const ravisKey = new SoftAuthenticator();
    await addPasskey(ravi, ravisKey);
    const signedIn = await server.call(
      'passkeyLogin',
      { credential: piasKey.get(await loginOptions(address)) },
      from(address),
    );
    expect(signedIn.data?.userInfo.user_id, signedIn.msg).toBe(pia.userId);

    // Bad answers by Pia's credential (signed for another site) lock out that credential at that address only.
    for (let i = 0; i < max; i++) {
      const phished = piasKey.get(await loginOptions(address), 'http://evil.example', credential);
      expectRefused(await server.call('passkeyLogin', { credential: phished }, from(address)), 'PasskeyInvalid');
    }
    const locked = await server.call(
      'passkeyLogin',
      { credential: piasKey.get(await loginOptions(address)) },
      from(address),
    );
    expect(locked.code).toBe(ErrorCodes.LoginLocked);
    const elsewhere = { ip: '10.7.7.8' };
    expect(
      (await server.call('passkeyLogin', { credential: piasKey.get(await loginOptions(elsewhere)) }, from(elsewhere)))
        .data?.userInfo.user_id,
    ).toBe(pia.userId);
    const ravis = await server.call(
      'passkeyLogin',
      { credential: ravisKey.get(await loginOptions(address)) },
      from(address),
    );
    expect(ravis.data?.userInfo.user_id, ravis.msg).toBe(ravi.userId);
  });

  it('answers a two-step ticket: options name that user’s passkeys, another’s passkey or a used ticket is refused', async () => {
    ip += 1;
    const [quinn, rae] = [await fresh('quinn'), await fresh('rae')];
    const auth = new SoftAuthenticator();
    const { credential } = await addPasskey(quinn, auth);
    const raes = new SoftAuthenticator();
    await addPasskey(rae, raes);
    const login = async () => {
      const res = await server.call(
        'login',
        { account: `quinn${n - 1}pk`, password: 'secret123', two_step: 1 },
        from(),
      );
      expect(res.code, res.msg).toBe(0);
      return res.data.two_step as { ticket: string; methods: string[] };
    };
    const step = await login();
    expect(step.methods).toEqual(['passkey']);
    const options = (await server.call('passkeyLoginOptions', { ticket: step.ticket }, from()))
      .data as PasskeyRequestOptions;
    expect(options.allowCredentials).toEqual([
      { id: b64u(credential.id), type: 'public-key', transports: ['internal'] },
    ]);

    // Rae's passkey does not answer Quinn's ticket, nor does a challenge of a sign-in without one.
    const wrong = await server.call(
      'loginTwoStep',
      { ticket: step.ticket, passkey: raes.get({ ...options, allowCredentials: [] }) },
      from(),
    );
    expectRefused(wrong, 'CodeInvalid');
    const unbound = auth.get(await loginOptions());
    expectRefused(await server.call('loginTwoStep', { ticket: step.ticket, passkey: unbound }, from()), 'CodeInvalid');

    const again = (await server.call('passkeyLoginOptions', { ticket: step.ticket }, from()))
      .data as PasskeyRequestOptions;
    const signed = auth.get(again);
    const res = await server.call('loginTwoStep', { ticket: step.ticket, passkey: signed }, from());
    expect({ code: res.code, msg: res.msg }).toEqual({ code: 0, msg: translate('en', 'ok.login') });
    expect(res.data.userInfo.user_id).toBe(quinn.userId);
    // The ticket is spent: neither options nor an answer for it any more.
    expectRefused(await server.call('passkeyLoginOptions', { ticket: step.ticket }, from()), 'TwoStepTicketGone');
    expectRefused(
      await server.call('loginTwoStep', { ticket: step.ticket, passkey: signed }, from()),
      'TwoStepTicketGone',
    );
  });

  it('adding and removing a passkey ask for the password: without it refused, a wrong one counted towards the lockout', async () => {
    ip += 1;
    const sam = await fresh('sam');
    const auth = new SoftAuthenticator();
    const { passkey, credential } = await addPasskey(sam, auth);
    // A stolen session alone neither adds a passkey nor removes one.
    for (const body of [{}, { password: '' }]) {
      expect((await server.call('passkeyRegisterOptions', body, as(sam))).code).toBe(ErrorCodes.Validation);
      expect((await server.call('passkeyRemove', { id: passkey.id, ...body }, as(sam))).code).toBe(
        ErrorCodes.Validation,
      );
    }
    const { max } = server.ctx.config.get().rateLimits.loginFailures;
    const wrong = { password: 'not-sams-pw' };
    for (let i = 0; i < max; i++) {
      const res =
        i % 2
          ? await server.call('passkeyRemove', { id: passkey.id, ...wrong }, as(sam))
          : await server.call('passkeyRegisterOptions', wrong, as(sam));
      expectRefused(res, 'OriginalPasswordWrong');
      expect(res.data).toEqual({ fields: ['password'] });
    }
    expect((await server.call('passkeyList', {}, as(sam))).data).toEqual([passkey]);
    // The wrong passwords count as failed logins of the account from this address: it is locked out.
    expect((await server.call('passkeyRegisterOptions', PROOF, as(sam))).code).toBe(ErrorCodes.LoginLocked);
    expect(
      (await server.call('login', { account: sam.account, password: 'secret123', two_step: 1 }, from())).code,
    ).toBe(ErrorCodes.LoginLocked);
    // From another address the right password does both.
    const elsewhere = { ip: '10.9.9.9' };
    const added = await addPasskey(sam, new SoftAuthenticator(), {}, elsewhere);
    expect((await server.call('passkeyRemove', { id: passkey.id, ...PROOF }, as(sam, elsewhere))).code).toBe(0);
    expect((await server.call('passkeyList', {}, as(sam, elsewhere))).data).toEqual([added.passkey]);
    expectRefused(
      await server.call(
        'passkeyLogin',
        { credential: auth.get(await loginOptions(elsewhere), ORIGIN, credential) },
        from(elsewhere),
      ),
      'PasskeyInvalid',
    );
  });

  it('signed out, nothing of one’s own passkeys is reachable', async () => {
    for (const route of ['passkeyRegisterOptions', 'passkeyList'] as const) {
      expect((await server.call(route, {}, from())).code).toBe(ErrorCodes.NoSession);
    }
    expect((await server.call('passkeyRemove', { id: 1 }, from())).code).toBe(ErrorCodes.NoSession);
  });

  if (target === 'postgres') {
    it('on two servers of one database: options from one are answered on the other, once', async () => {
      const second = await buildApp(
        {
          ...loadConfig({}),
          port: 0,
          dataDir: server.dataDir,
          databaseUrl: server.ctx.env.databaseUrl,
          redisUrl: process.env.REDIS_URL,
          logLevel: 'silent',
        },
        { now: server.clock.now, logger: false },
      );
      try {
        ip += 1;
        const other = async (path: string, body: object, token?: string) =>
          (
            await second.app.inject({
              method: 'POST',
              url: path,
              headers: {
                'content-type': 'application/json',
                host: HOST,
                'user-agent': DESKTOP_UA,
                'x-forwarded-for': `10.1.0.${ip}`,
                ...(token ? { authorization: token } : {}),
              },
              payload: JSON.stringify(body),
            })
          ).json() as Envelope<any>;
        const pat = await fresh('pat');
        const auth = new SoftAuthenticator();
        // Options made on the first node, the credential added on the second.
        const reg = (await server.call('passkeyRegisterOptions', PROOF, as(pat))).data as PasskeyCreationOptions;
        const made = auth.create(reg);
        expect((await other('/enterprise/passkey/register', { credential: made.json }, pat.token)).code).toBe(0);
        expectRefused(await server.call('passkeyRegister', { credential: made.json }, as(pat)), 'PasskeyInvalid');

        // A sign-in asked of the first, answered on both at once: one session.
        for (let round = 0; round < 3; round++) {
          ip += 1;
          const signed = auth.get(await loginOptions());
          const answers = await Promise.all(
            Array.from({ length: 6 }, (_, i) =>
              i % 2
                ? other('/common/Pub/passkeyLogin', { credential: signed })
                : server.call('passkeyLogin', { credential: signed }, from()),
            ),
          );
          expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
        }
        const listed = await other('/enterprise/passkey/list', {}, pat.token);
        expect(listed.data).toHaveLength(1);
      } finally {
        await second.app.close();
      }
    });
  }
});

/** The challenge a signed answer's client data names. */
function challengeOf(signed: { response: { clientDataJSON: string } }): string {
  return (JSON.parse(Buffer.from(signed.response.clientDataJSON, 'base64url').toString()) as { challenge: string })
    .challenge;
}
