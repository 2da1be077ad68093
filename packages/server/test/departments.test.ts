import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Contact, Department } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../src/modules/admin';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

const adminMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/admin.ts');

type Person = Awaited<ReturnType<typeof signUp>>;

describeEachDb('departments (docs/product.md §3 dep_id)', (target) => {
  let server: TestServer;
  let root: Person;
  let ann: Person;
  let bob: Person;

  const as = (who: Person) => ({ token: who.token });

  function cli(...args: string[]) {
    const res = spawnSync(process.execPath, ['--import', 'tsx', adminMain, ...args], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.ctx.env.databaseUrl ?? '' },
      encoding: 'utf8',
    });
    return { status: res.status, out: `${res.stdout}${res.stderr}` };
  }

  async function contactOf(viewer: Person, userId: number): Promise<Contact | undefined> {
    const list = await server.call('getContacts', {}, as(viewer));
    expect(list.code).toBe(0);
    return (list.data as Contact[]).find((c) => c.id === userId);
  }

  async function auditOf(action: string) {
    const res = await server.call('manageAuditList', { action }, as(root));
    return res.data as { admin_id: number; action: string; target: string; detail: string }[];
  }

  beforeAll(async () => {
    server = await startServer(target);
    root = await signUp(server, 'dep_root');
    ann = await signUp(server, 'dep_ann', 'secret123', 'Ann');
    bob = await signUp(server, 'dep_bob', 'secret123', 'Bob');
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole('dep_root', 'admin');
    await server.ctx.config.set('sysInfo.runMode', '1');
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
  });
  afterAll(async () => {
    await server.close();
  });

  const ROUTES = {
    manageDepartmentList: {},
    manageDepartmentCreate: { name: 'Matrix' },
    manageDepartmentRename: { id: 1, name: 'Matrix renamed' },
    manageDepartmentDel: { id: 999_999 },
    manageUserDepartment: { user_id: 999_999, dep_id: 0 },
  } as const;

  describe('who may call each route', () => {
    for (const [name, body] of Object.entries(ROUTES) as [keyof typeof ROUTES, Record<string, unknown>][]) {
      it(`${name}: admin answered, plain user 403, signed out -1`, async () => {
        expect((await server.callRaw(name, body, { lang: 'en' })).json).toMatchObject({ code: -1, data: [] });
        expect(await server.call(name, body, { token: ann.token, lang: 'es' })).toMatchObject({
          code: 403,
          data: null,
        });
        const answer = await server.call(name, body, as(root));
        expect(answer.code, answer.msg).toBe(JSON.stringify(body).includes('999999') ? 404 : 0);
      });
    }
  });

  it('creates, renames and lists departments, each change audited', async () => {
    const sales = await server.call('manageDepartmentCreate', { name: '  Sales ', sort: 2 }, as(root));
    expect(sales.code).toBe(0);
    expect(sales.data).toMatchObject({ name: 'Sales', parent_id: 0, sort: 2, user_count: 0 });
    const east = await server.call('manageDepartmentCreate', { name: 'East', parent_id: sales.data.id }, as(root));
    expect(east.data).toMatchObject({ name: 'East', parent_id: sales.data.id });
    // A parent that does not exist is not found, named by its field.
    const orphan = await server.call('manageDepartmentCreate', { name: 'Nowhere', parent_id: 999_999 }, as(root));
    expect(orphan).toMatchObject({ code: 404, data: { fields: ['parent_id'] } });

    expect((await server.call('manageDepartmentRename', { id: east.data.id, name: 'East coast' }, as(root))).code).toBe(
      0,
    );
    const list = (await server.call('manageDepartmentList', {}, as(root))).data as Department[];
    expect(list.find((d) => d.id === east.data.id)).toMatchObject({ name: 'East coast', parent_id: sales.data.id });

    const [renamed] = await auditOf('departmentRename');
    expect(renamed).toMatchObject({ admin_id: root.userId, target: `department:${east.data.id}` });
    expect(JSON.parse(renamed!.detail)).toEqual({ from: 'East', to: 'East coast' });
    const created = await auditOf('departmentCreate');
    expect(created.map((r) => r.target)).toContain(`department:${sales.data.id}`);
    // A name too long or blank is refused before anything is stored.
    expect((await server.call('manageDepartmentCreate', { name: 'x'.repeat(65) }, as(root))).code).toBe(400);
    expect((await server.call('manageDepartmentRename', { id: east.data.id, name: '   ' }, as(root))).code).toBe(400);
  });

  it('puts people in departments: their contact records carry dep_id and, in runMode 1, dep_name', async () => {
    const dep = (await server.call('manageDepartmentCreate', { name: 'Support' }, as(root))).data as Department;
    const sock = await TestSocket.bound(server, bob.userId, bob.token);
    const set = await server.call('manageUserDepartment', { user_id: ann.userId, dep_id: dep.id }, as(root));
    expect(set.code).toBe(0);
    // Everyone listing her hears of the move at once, as of a profile change.
    const pushed = await sock.waitFor((f) => f.type === 'appendContact' && f.data.id === ann.userId);
    expect(pushed.data).toMatchObject({ dep_id: dep.id, dep_name: 'Support' });
    sock.ws.close();
    const [audited] = await auditOf('userDepartment');
    expect(audited).toMatchObject({ admin_id: root.userId, target: `user:${ann.userId}` });
    expect(JSON.parse(audited!.detail)).toMatchObject({ from: 0, to: dep.id });

    expect(await contactOf(bob, ann.userId)).toMatchObject({ dep_id: dep.id, dep_name: 'Support' });
    expect(await contactOf(bob, root.userId)).toMatchObject({ dep_id: 0 });
    expect((await contactOf(bob, root.userId))?.dep_name).toBeUndefined();
    const info = await server.call('getContactInfo', { id: ann.userId }, as(bob));
    expect(info.data).toMatchObject({ dep_id: dep.id, dep_name: 'Support' });

    const users = await server.call('manageUserList', { keywords: 'dep_ann' }, as(root));
    expect(users.data[0]).toMatchObject({ user_id: ann.userId, dep_id: dep.id });
    const listed = (await server.call('getDepartments', {}, as(bob))).data as Department[];
    expect(listed.find((d) => d.id === dep.id)).toMatchObject({ name: 'Support', user_count: 1 });

    // A department that does not exist is not found; the user stays where they were.
    const missing = await server.call('manageUserDepartment', { user_id: ann.userId, dep_id: 999_999 }, as(root));
    expect(missing).toMatchObject({ code: 404, data: { fields: ['dep_id'] } });
    expect((await contactOf(bob, ann.userId))?.dep_id).toBe(dep.id);
  });

  it('deletes a department only once no one and no department is in it', async () => {
    const parent = (await server.call('manageDepartmentCreate', { name: 'Ops' }, as(root))).data as Department;
    const child = (await server.call('manageDepartmentCreate', { name: 'Night', parent_id: parent.id }, as(root)))
      .data as Department;
    await server.call('manageUserDepartment', { user_id: bob.userId, dep_id: child.id }, as(root));

    const withPerson = await server.call('manageDepartmentDel', { id: child.id }, { ...as(root), lang: 'en' });
    expect(withPerson).toMatchObject({ code: 400, data: { fields: ['id'] } });
    expect(withPerson.msg).toBe('There are still people or departments in this department');
    const withChild = await server.call('manageDepartmentDel', { id: parent.id }, { ...as(root), lang: 'fr' });
    expect(withChild.code).toBe(400);
    expect(withChild.msg).toBe('Ce service contient encore des personnes ou des services');

    await server.call('manageUserDepartment', { user_id: bob.userId, dep_id: 0 }, as(root));
    expect((await contactOf(ann, bob.userId))?.dep_id).toBe(0);
    expect((await server.call('manageDepartmentDel', { id: child.id }, as(root))).code).toBe(0);
    expect((await server.call('manageDepartmentDel', { id: parent.id }, as(root))).code).toBe(0);
    const deleted = await auditOf('departmentDel');
    expect(deleted.map((r) => r.target)).toEqual(
      expect.arrayContaining([`department:${child.id}`, `department:${parent.id}`]),
    );
    const list = (await server.call('manageDepartmentList', {}, as(root))).data as Department[];
    expect(list.map((d) => d.id)).not.toContain(parent.id);
    // Gone is gone: a second delete is not found.
    expect((await server.call('manageDepartmentDel', { id: parent.id }, as(root))).code).toBe(404);
  });

  it('getDepartments answers nothing outside runMode 1, where contacts are friends only', async () => {
    await server.call('manageDepartmentCreate', { name: 'Hidden' }, as(root));
    expect(((await server.call('getDepartments', {}, as(ann))).data as Department[]).length).toBeGreaterThan(0);
    expect((await server.callRaw('getDepartments', {})).json).toMatchObject({ code: -1 });
    await server.ctx.config.set('sysInfo.runMode', '2');
    try {
      expect(await server.call('getDepartments', {}, as(ann))).toMatchObject({ code: 0, data: [] });
    } finally {
      await server.ctx.config.set('sysInfo.runMode', '1');
    }
  });

  it('the command line lists, creates, renames, assigns and deletes departments, audited as the command line', async () => {
    const made = cli('department', 'create', 'Legal');
    expect(made.status, made.out).toBe(0);
    const id = Number(/id (\d+)/.exec(made.out)?.[1]);
    expect(cli('department', 'rename', String(id), 'Legal', 'and', 'Compliance').status).toBe(0);
    expect(cli('user', 'department', 'dep_bob', String(id)).status).toBe(0);
    const listed = cli('department', 'list');
    expect(listed.out).toContain(`${id}\tparent 0\t1 people\tLegal and Compliance`);
    const refused = cli('department', 'delete', String(id));
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('There are still people or departments in this department (id)');
    expect(cli('user', 'department', 'dep_bob', '0').status).toBe(0);
    expect(cli('department', 'delete', String(id)).status).toBe(0);
    const [row] = await auditOf('departmentDel');
    expect(row).toMatchObject({ admin_id: 0, target: `department:${id}` });
  }, 90_000);
});
