import { PICTURES } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../src/modules/admin';
import {
  describeEachDb,
  expectBadBodies,
  logIn,
  MISSING,
  signUp,
  startServer,
  TestSocket,
  type TestServer,
} from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

describeEachDb('profiles: getUserInfo, searchUser, updateUserInfo', (target) => {
  let server: TestServer;
  let alice: User;
  let bob: User;
  beforeAll(async () => {
    server = await startServer(target);
    alice = await signUp(server, 'alice_prof');
    bob = await signUp(server, 'bob1');
    await server.ctx.db
      .updateTable('users')
      .set({ email: 'bob@example.com', phone: '+8613900000001', motto: 'hi' })
      .where('id', '=', bob.userId)
      .execute();
  });
  afterAll(async () => {
    await server.close();
  });

  describe('getUserInfo', () => {
    it('shows my own account in full', async () => {
      const res = await server.call('getUserInfo', { user_id: alice.userId }, { token: alice.token });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({
        user_id: alice.userId,
        id: alice.userId,
        account: 'alice_prof',
        realname: 'alice_prof',
      });
    });

    it('masks another user’s account and shows no address of theirs', async () => {
      const res = await server.call('getUserInfo', { user_id: String(alice.userId) }, { token: bob.token });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({
        user_id: alice.userId,
        account: 'ali******of',
        displayName: 'alice_prof',
        friend: null,
        is_friend: 0,
      });
      const short = await server.call('getUserInfo', { user_id: bob.userId }, { token: alice.token });
      expect(short.data.account).toBe('b******');
      expect(short.data.motto).toBe('hi');
      expect(JSON.stringify(short.data)).not.toContain('bob@example.com');
      expect(JSON.stringify(short.data)).not.toContain('13900000001');
    });

    it('answers 404 for an unknown or disabled user', async () => {
      const unknown = await server.call('getUserInfo', { user_id: 999_999 }, { token: alice.token, lang: 'fr' });
      expect(unknown).toEqual({ code: 404, msg: "Cet utilisateur n'existe pas", data: null });
      const carl = await signUp(server, 'carl_gone');
      await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setStatus('carl_gone', false);
      expect((await server.call('getUserInfo', { user_id: carl.userId }, { token: alice.token })).code).toBe(404);
    });

    it('refuses a bad body and a missing session', async () => {
      await expectBadBodies(
        server,
        'getUserInfo',
        { user_id: bob.userId },
        [
          { field: 'user_id', value: MISSING, key: 'validation.required' },
          { field: 'user_id', value: 'abc', key: 'validation.invalid' },
          { field: 'user_id', value: 0, key: 'validation.invalid' },
          { field: 'user_id', value: -3, key: 'validation.invalid' },
          { field: 'user_id', value: 1.5, key: 'validation.invalid' },
          { field: 'user_id', value: { id: 1 }, key: 'validation.invalid' },
        ],
        { token: alice.token },
      );
      expect((await server.call('getUserInfo', { user_id: bob.userId })).code).toBe(-1);
    });
  });

  describe('searchUser', () => {
    const search = (keywords: unknown) => server.call('searchUser', { keywords }, { token: alice.token });

    it('finds a user by exactly their account, email or phone', async () => {
      for (const k of ['bob1', 'BOB1', ' bob1 ', 'bob@example.com', 'Bob@Example.com', '+8613900000001']) {
        const res = await search(k);
        expect(res.code, k).toBe(0);
        expect(res.data, k).toHaveLength(1);
        expect(res.data[0], k).toMatchObject({ user_id: bob.userId, account: 'b******' });
      }
    });

    it('never matches partially and never lists', async () => {
      for (const k of [
        'bob',
        'ob1',
        'bob1x',
        'bob@example',
        'example.com',
        '13900000001',
        '%',
        '_',
        'bob_',
        '*',
        "' or 1=1 --",
      ]) {
        const res = await search(k);
        expect(res, k).toEqual({ code: 0, msg: '', data: [] });
      }
    });

    it('does not find a disabled user', async () => {
      expect((await search('carl_gone')).data).toEqual([]);
    });

    it('refuses a bad body and a missing session', async () => {
      await expectBadBodies(
        server,
        'searchUser',
        { keywords: 'bob1' },
        [
          { field: 'keywords', value: MISSING, key: 'validation.required' },
          { field: 'keywords', value: '  ', key: 'validation.required' },
          { field: 'keywords', value: 'k'.repeat(129), key: 'validation.tooLong', params: { max: 128 } },
          { field: 'keywords', value: 42, key: 'validation.invalid' },
        ],
        { token: alice.token },
      );
      expect((await server.call('searchUser', { keywords: 'bob1' })).code).toBe(-1);
    });
  });

  describe('updateUserInfo', () => {
    const update = (body: Record<string, unknown>, opts = {}) =>
      server.call('updateUserInfo', body, { token: alice.token, ...opts });

    it('changes each field given and only those', async () => {
      const name = await update({ realname: '  Alice Liddell  ' });
      expect(name).toMatchObject({
        code: 0,
        msg: 'Saved',
        data: { realname: 'Alice Liddell', displayName: 'Alice Liddell', motto: '' },
      });
      const motto = await update({ motto: 'Down the rabbit hole' });
      expect(motto.data).toMatchObject({ realname: 'Alice Liddell', motto: 'Down the rabbit hole' });
      const sex = await update({ sex: '0' });
      expect(sex.data.sex).toBe(0);
      expect((await update({ sex: 1 })).data.sex).toBe(1);
      const email = await update({ email: ' Alice@Example.org ' });
      expect(email.data.email).toBe('alice@example.org');
      const me = await server.call('checkuser', {}, { token: alice.token });
      expect(me.data).toMatchObject({
        realname: 'Alice Liddell',
        motto: 'Down the rabbit hole',
        sex: 1,
        email: 'alice@example.org',
      });
      expect((await update({ email: '' })).data.email).toBe('');
      expect((await update({})).data).toMatchObject({ realname: 'Alice Liddell', sex: 1 });
      const other = await server.call('getUserInfo', { user_id: alice.userId }, { token: bob.token });
      expect(other.data).toMatchObject({ realname: 'Alice Liddell', motto: 'Down the rabbit hole', sex: 1 });
    });

    it('drops unknown keys: no role, password, account or status through the back door', async () => {
      const res = await update({
        motto: 'still me',
        role: 1,
        is_auth: 1,
        status: 0,
        account: 'hacker',
        password: 'hacked123',
        password_hash: 'scrypt-free',
        id: bob.userId,
        user_id: bob.userId,
        avatar: 'https://evil.example/x.png',
        'setting[language]': 'fr',
      });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({
        account: 'alice_prof',
        role: 0,
        is_auth: 0,
        avatar: PICTURES.person,
        motto: 'still me',
        user_id: alice.userId,
      });
      const row = await server.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', alice.userId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ account: 'alice_prof', role: 0, status: 1, is_auth: 0, avatar: PICTURES.person });
      expect(row.password_hash.startsWith('scrypt$')).toBe(true);
      const bobRow = await server.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', bob.userId)
        .executeTakeFirstOrThrow();
      expect(bobRow.motto).toBe('hi');
      expect((await server.call('login', { account: 'alice_prof', password: alice.password })).code).toBe(0);
      expect((await server.call('login', { account: 'alice_prof', password: 'hacked123' })).code).toBe(400);
    });

    it('refuses an email address that is already someone’s', async () => {
      const res = await update({ email: 'BOB@example.com' });
      expect(res).toMatchObject({ code: 400, msg: 'This account is already registered', data: { fields: ['email'] } });
      expect((await update({ email: 'bob1' })).code).toBe(400);
    });

    it('refuses a bad body, field by field', async () => {
      await expectBadBodies(
        server,
        'updateUserInfo',
        {},
        [
          { field: 'realname', value: '', key: 'validation.required' },
          { field: 'realname', value: 'n'.repeat(33), key: 'validation.tooLong', params: { max: 32 } },
          { field: 'realname', value: 7, key: 'validation.invalid' },
          { field: 'email', value: 'not-an-email', key: 'validation.invalid' },
          { field: 'email', value: `${'e'.repeat(130)}@example.com`, key: 'validation.invalid' },
          { field: 'motto', value: 'm'.repeat(121), key: 'validation.tooLong', params: { max: 120 } },
          { field: 'motto', value: ['a'], key: 'validation.invalid' },
          { field: 'sex', value: 3, key: 'validation.invalid' },
          { field: 'sex', value: -1, key: 'validation.invalid' },
          { field: 'sex', value: 'male', key: 'validation.invalid' },
        ],
        { token: alice.token },
      );
      expect((await server.call('checkuser', {}, { token: alice.token })).data.realname).toBe('Alice Liddell');
    });

    it('refuses a new name when diyName is 0, and still saves the rest', async () => {
      await server.ctx.config.set('sysInfo.diyName', '0');
      try {
        const res = await update({ realname: 'Someone Else' }, { lang: 'zh-Hant' });
        expect(res).toMatchObject({ code: 400, data: { fields: ['realname'] } });
        expect(res.msg).toBe('系統不允許修改暱稱');
        expect((await update({ realname: 'Alice Liddell', motto: 'same name is fine' })).code).toBe(0);
        expect((await update({ motto: 'no name given' })).data).toMatchObject({
          realname: 'Alice Liddell',
          motto: 'no name given',
        });
      } finally {
        await server.ctx.config.set('sysInfo.diyName', '1');
      }
    });

    it('needs a session', async () => {
      expect((await server.call('updateUserInfo', { motto: 'x' })).code).toBe(-1);
      expect(
        (await server.call('updateUserInfo', { motto: 'x' }, { token: 'bearer revoked-or-never-issued-token' })).code,
      ).toBe(-1);
    });
  });
});

describeEachDb('editPassword and editAccount', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('editPassword', () => {
    it('by the current password: keeps this session, ends the others and closes their sockets', async () => {
      const dora = await signUp(server, 'dora_pw');
      const other = await logIn(server, 'dora_pw', dora.password);
      const third = await logIn(server, 'dora_pw', dora.password);
      const mine = await TestSocket.bound(server, dora.userId, dora.token);
      const theirs = await TestSocket.bound(server, dora.userId, other);

      const res = await server.call(
        'editPassword',
        { password: 'newpass99', originalPassword: dora.password },
        { token: dora.token },
      );
      expect(res).toEqual({ code: 0, msg: 'Password changed; other devices must log in again', data: null });
      expect(await theirs.waitClosed()).toBe(4004);
      expect((await server.call('checkuser', {}, { token: other })).code).toBe(-1);
      expect((await server.call('checkuser', {}, { token: third })).code).toBe(-1);
      expect((await server.call('checkuser', {}, { token: dora.token })).code).toBe(0);
      expect((await mine.roundTrip()).type).toBe('pong');
      expect((await server.call('login', { account: 'dora_pw', password: dora.password })).code).toBe(400);
      expect((await server.call('login', { account: 'dora_pw', password: 'newpass99' })).code).toBe(0);
      mine.close();
    });

    it('refuses a wrong current password and changes nothing', async () => {
      const ed = await signUp(server, 'ed_pw');
      const other = await logIn(server, 'ed_pw', ed.password);
      const res = await server.call(
        'editPassword',
        { password: 'newpass99', originalPassword: 'not-it' },
        { token: ed.token, lang: 'es' },
      );
      expect(res).toMatchObject({
        code: 400,
        msg: 'La contraseña actual es incorrecta',
        data: { fields: ['originalPassword'] },
      });
      expect((await server.call('checkuser', {}, { token: other })).code).toBe(0);
      expect((await server.call('login', { account: 'ed_pw', password: ed.password })).code).toBe(0);
    });

    it('by a code (sendCode type 3) sent to my address', async () => {
      await server.ctx.config.set('sysInfo.regauth', '2');
      await server.call('sendCode', { account: 'fern@example.com', type: 2 });
      await server.call('register', {
        account: 'fern@example.com',
        password: 'secret123',
        realname: 'F',
        code: server.lastCode('fern@example.com'),
      });
      await server.ctx.config.set('sysInfo.regauth', '0');
      const token = await logIn(server, 'fern@example.com', 'secret123');
      const other = await logIn(server, 'fern@example.com', 'secret123');
      server.clock.advance(60_000);
      expect((await server.call('sendCode', { account: 'fern@example.com', type: 3 }, { token })).code).toBe(0);
      const code = server.lastCode('fern@example.com');
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expect((await server.call('editPassword', { password: 'bycode123', code: wrong }, { token })).code).toBe(400);
      expect((await server.call('editPassword', { password: 'bycode123', code }, { token })).code).toBe(0);
      expect((await server.call('checkuser', {}, { token: other })).code).toBe(-1);
      expect((await server.call('login', { account: 'fern@example.com', password: 'bycode123' })).code).toBe(0);
      expect((await server.call('editPassword', { password: 'again1234', code }, { token })).code).toBe(400);
    });

    it('cannot send a type 3 code to a user with no address', async () => {
      const gil = await signUp(server, 'gil_noaddr');
      const res = await server.call('sendCode', { account: 'gil_noaddr', type: 3 }, { token: gil.token });
      expect(res).toMatchObject({ code: 400, data: { fields: ['account'] } });
    });

    it('refuses a bad body, field by field, and a missing or revoked session', async () => {
      const hugo = await signUp(server, 'hugo_pw');
      await expectBadBodies(
        server,
        'editPassword',
        { password: 'newpass99', originalPassword: hugo.password },
        [
          { field: 'password', value: MISSING, key: 'validation.required' },
          { field: 'password', value: '12345', key: 'validation.tooShort', params: { min: 6 } },
          { field: 'password', value: 'p'.repeat(17), key: 'validation.tooLong', params: { max: 16 } },
          { field: 'password', value: 12345678, key: 'validation.invalid' },
          { field: 'originalPassword', value: MISSING, key: 'validation.required' },
          { field: 'originalPassword', value: '', key: 'validation.required' },
          { field: 'originalPassword', value: 'o'.repeat(65), key: 'validation.tooLong', params: { max: 64 } },
          { field: 'code', value: '12345', key: 'validation.invalid' },
        ],
        { token: hugo.token },
      );
      expect((await server.call('login', { account: 'hugo_pw', password: hugo.password })).code).toBe(0);
      expect((await server.call('editPassword', { password: 'newpass99', originalPassword: hugo.password })).code).toBe(
        -1,
      );
      await server.call('logout', {}, { token: hugo.token });
      const revoked = await server.call(
        'editPassword',
        { password: 'newpass99', originalPassword: hugo.password },
        { token: hugo.token },
      );
      expect(revoked.code).toBe(-1);
    });
  });

  describe('editAccount', () => {
    let ivy: User;
    beforeAll(async () => {
      ivy = await signUp(server, 'ivy_acct');
      await signUp(server, 'jon_acct');
      await server.ctx.db
        .updateTable('users')
        .set({ email: 'jon@example.com' })
        .where('account', '=', 'jon_acct')
        .execute();
    });

    it('binds an email to an unverified account with the new address’s code; is_auth is set', async () => {
      expect((await server.call('sendCode', { account: 'ivy@example.com', type: 4 }, { token: ivy.token })).code).toBe(
        0,
      );
      const newCode = server.lastCode('ivy@example.com');
      const res = await server.call('editAccount', { account: 'Ivy@Example.com', newCode }, { token: ivy.token });
      expect(res).toMatchObject({
        code: 0,
        msg: 'Account changed',
        data: { account: 'ivy@example.com', email: 'ivy@example.com', is_auth: 1 },
      });
      expect((await server.call('login', { account: 'ivy@example.com', password: ivy.password })).code).toBe(0);
      expect((await server.call('login', { account: 'ivy_acct', password: ivy.password })).code).toBe(400);
    });

    it('once verified, needs a code from the current address as well', async () => {
      server.clock.advance(60_000);
      const phone = '+8613700000001';
      expect((await server.call('sendCode', { account: phone, type: 4 }, { token: ivy.token })).code).toBe(0);
      const newCode = server.lastCode(phone);
      const without = await server.call('editAccount', { account: phone, newCode }, { token: ivy.token });
      expect(without).toMatchObject({ code: 400, msg: 'The verification code is wrong or has expired' });

      server.clock.advance(60_000);
      expect((await server.call('sendCode', { account: phone, type: 4 }, { token: ivy.token })).code).toBe(0);
      const newCode2 = server.lastCode(phone);
      expect((await server.call('sendCode', { account: 'ivy@example.com', type: 4 }, { token: ivy.token })).code).toBe(
        0,
      );
      const code = server.lastCode('ivy@example.com');
      const res = await server.call('editAccount', { account: phone, code, newCode: newCode2 }, { token: ivy.token });
      expect(res).toMatchObject({ code: 0, data: { account: phone, phone, is_auth: 1 } });
      expect((await server.call('login', { account: phone, password: ivy.password })).code).toBe(0);
    });

    it('refuses an address that is someone else’s, and an account that is no address', async () => {
      const taken = await server.call('sendCode', { account: 'jon@example.com', type: 4 }, { token: ivy.token });
      expect(taken).toMatchObject({ code: 400, data: { fields: ['account'] } });
      const edit = await server.call(
        'editAccount',
        { account: 'jon@example.com', code: '123456', newCode: '123456' },
        { token: ivy.token },
      );
      expect(edit).toMatchObject({
        code: 400,
        msg: 'This account is already registered',
        data: { fields: ['account'] },
      });
      const plain = await server.call(
        'editAccount',
        { account: 'plain_name', newCode: '123456' },
        { token: ivy.token },
      );
      expect(plain).toMatchObject({
        code: 400,
        msg: 'The account must be a phone number or email address',
        data: { fields: ['account'] },
      });
      const me = await server.call('checkuser', {}, { token: ivy.token });
      expect(me.data.account).toBe('+8613700000001');
    });

    it('refuses a bad body, field by field, and a missing session', async () => {
      await expectBadBodies(
        server,
        'editAccount',
        { account: 'kim@example.com', code: '123456', newCode: '123456' },
        [
          { field: 'account', value: MISSING, key: 'validation.required' },
          { field: 'account', value: '', key: 'validation.required' },
          {
            field: 'account',
            value: `${'k'.repeat(120)}@example.com`,
            key: 'validation.tooLong',
            params: { max: 128 },
          },
          { field: 'code', value: '1234567', key: 'validation.tooLong', params: { max: 6 } },
          { field: 'newCode', value: MISSING, key: 'validation.required' },
          { field: 'newCode', value: '12a456', key: 'validation.invalid' },
          { field: 'newCode', value: 123456, key: 'validation.invalid' },
        ],
        { token: ivy.token },
      );
      expect((await server.call('editAccount', { account: 'kim@example.com', newCode: '123456' })).code).toBe(-1);
    });
  });
});
