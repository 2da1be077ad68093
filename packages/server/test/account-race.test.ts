/**
 * One account asked for by many requests at the same moment: the check that it is free passes for
 * each before any of them writes, so the database's unique constraint decides, and every loser is
 * answered "account taken" as a later request would be, never a server error, on either database.
 */
import { translate } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AdminService } from '../src/modules/admin';
import { describeEachDb, signUp, startServer, type RawResponse, type TestServer } from './harness';

const AT_ONCE = 10;
const TAKEN = translate('en', 'errors.AccountTaken');

/** How many answers were a success, "account taken", a 5xx, or anything else. */
function tally(answers: RawResponse[]) {
  const count = (pick: (a: RawResponse) => boolean) => answers.filter(pick).length;
  return {
    ok: count((a) => a.status === 200 && a.json.code === 0),
    taken: count((a) => a.status === 200 && a.json.code === 400 && a.json.msg === TAKEN),
    serverErrors: count((a) => a.status >= 500),
    other: answers.filter((a) => a.json.code !== 0 && a.json.msg !== TAKEN).map((a) => `${a.status} ${a.json.msg}`),
  };
}

describeEachDb('one account asked for at the same moment', (target) => {
  let server: TestServer;
  let root: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('sysInfo.registerInterval', '0');
    await server.ctx.config.set('rateLimits.manage.perMinute', '100000');
    root = await signUp(server, 'root_race');
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole('root_race', 'admin');
  });

  afterAll(async () => {
    await server.close();
  });

  it(`register ×${AT_ONCE}: one account made, the others told it is taken`, async () => {
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        server.callRaw(
          'register',
          { account: 'same_moment', password: 'secret123', realname: `Twin ${i}` },
          { lang: 'en', ip: `10.9.0.${i + 1}` },
        ),
      ),
    );
    expect(tally(answers)).toEqual({ ok: 1, taken: AT_ONCE - 1, serverErrors: 0, other: [] });
    const rows = await server.ctx.db.selectFrom('users').select('id').where('account', '=', 'same_moment').execute();
    expect(rows).toHaveLength(1);
  });

  it(`manage/userCreate ×${AT_ONCE}: one account made, the others told it is taken`, async () => {
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        server.callRaw(
          'manageUserCreate',
          { account: 'made_at_once', password: 'secret123', realname: `Made ${i}` },
          { token: root.token, lang: 'en' },
        ),
      ),
    );
    expect(tally(answers)).toEqual({ ok: 1, taken: AT_ONCE - 1, serverErrors: 0, other: [] });
    const rows = await server.ctx.db.selectFrom('users').select('id').where('account', '=', 'made_at_once').execute();
    expect(rows).toHaveLength(1);
  });
});
