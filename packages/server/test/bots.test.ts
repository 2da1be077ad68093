import {
  BOT_FAILURES_MAX,
  BOT_RETRY_DELAYS_MS,
  BOTS_PER_USER_MAX,
  ErrorCodes,
  TOKEN_PREFIX,
  type Bot,
  type BotCreated,
  type BotDelivery,
  type BotEvent,
  type RouteName,
} from '@sparrow/protocol';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { BotDeliveries } from '../src/modules/bot';
import { describeEachDb, makeFriends, makeGroup, signUp, startServer, type TestServer } from './harness';

/**
 * Bot accounts (docs/protocol.md §11): made by their owner with a token shown once; the owner's
 * friend at once (anyone else's on asking); the messages sent to a bot or naming it in a group are
 * POSTed to its webhook, signed with the Standard Webhooks scheme, tried again with back-off, given
 * up after the last try, and the webhook turned off after BOT_FAILURES_MAX failures in a row; the
 * bot answers through the API. The webhook is checked as push services are. A real HTTP receiver
 * on loopback plays the bot's program.
 */

type User = Awaited<ReturnType<typeof signUp>>;

/** What the receiver got: each POST's headers and body. */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback: answers each POST with the next of `statuses` (200 when none is left). */
class Receiver {
  readonly got: Received[] = [];
  statuses: number[] = [];
  private server!: http.Server;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        this.got.push({ headers: req.headers, body });
        res.statusCode = this.statuses.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async waitFor(count: number, ms = 5_000): Promise<Received[]> {
    const until = Date.now() + ms;
    while (this.got.length < count) {
      if (Date.now() > until) throw new Error(`${this.got.length} of ${count} deliveries within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.got;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describeEachDb('bot accounts', (target) => {
  let server: TestServer;
  let receiver: Receiver;
  let n = 0;
  const fresh = (name: string): Promise<User> => signUp(server, `${name}${++n}bt`, 'secret123', `${name}${n}`);
  const call = (name: RouteName, body: object, token: string) => server.call(name, body, { token, lang: 'en' });
  const made = async (owner: User, name = '回声'): Promise<BotCreated> => {
    const res = await call('botCreate', { name }, owner.token);
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };
  const hooked = async (owner: User, bot: BotCreated, url = receiver.url): Promise<Bot> => {
    const res = await call('botEdit', { bot_id: bot.id, name: bot.name, webhook_url: url }, owner.token);
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };
  const say = async (from: User, to: number | string, content: string, at: number[] = []) => {
    const res = await call(
      'sendMessage',
      { id: crypto.randomUUID(), toContactId: to, type: 'text', content, at },
      from.token,
    );
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };
  /** Waits for the sweep an event started (its outcome recorded); tries nothing not due. */
  const settled = () => server.services.botDeliveries.sweep();
  const log = async (owner: User, bot: Bot) =>
    (await call('botDeliveries', { bot_id: bot.id }, owner.token)).data as BotDelivery[];

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    server = await startServer(target, { env: { botWebhookAllowHttp: true, botWebhookAllowInternal: true } });
  });
  beforeEach(() => {
    receiver.got.length = 0;
    receiver.statuses = [];
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('makes a bot with a token shown once, its owner’s friend, that answers through the API', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    expect(bot.token).toMatch(new RegExp(`^${TOKEN_PREFIX}`));
    expect(bot.webhook_secret).toMatch(/^whsec_/);
    expect(bot).toMatchObject({ name: '回声', webhook_url: '', webhook_state: 'off', failures: 0 });
    const listed = (await call('botList', {}, owner.token)).data as Bot[];
    expect(listed).toEqual([expect.objectContaining({ id: bot.id, name: '回声' })]);
    expect(JSON.stringify(listed)).not.toContain(bot.token);

    const contacts = (await call('getContacts', {}, owner.token)).data as Array<{ id: number }>;
    expect(contacts.map((c) => c.id)).toContain(bot.id);
    const answer = await say({ ...owner, token: `Bearer ${bot.token}` } as User, owner.userId, '你好，我是机器人');
    expect(answer.fromUser).toMatchObject({ id: bot.id, robot: 1 });
    // Managing bots takes a session: a bot's token reaches none of it.
    expect((await call('botList', {}, `Bearer ${bot.token}`)).code).toBe(ErrorCodes.TokenScope);
    // No password signs a bot in.
    const login = await server.call('login', { account: bot.account, password: '!' }, { lang: 'en' });
    expect(login.code).not.toBe(0);
    // Anyone may befriend a bot: it takes every request at once.
    const other = await fresh('oth');
    const asked = await call('friendAdd', { user_id: bot.id }, other.token);
    expect(asked.code, asked.msg).toBe(0);
    const theirs = (await call('getContacts', {}, other.token)).data as Array<{ id: number }>;
    expect(theirs.map((c) => c.id)).toContain(bot.id);
  });

  it('delivers what is sent to it and what names it, signed, and the bot’s answer reaches the chat', async () => {
    const owner = await fresh('own');
    const member = await fresh('mem');
    const bot = await made(owner);
    const set = await hooked(owner, bot);
    expect(set.webhook_state).toBe('on');

    await say(owner, bot.id, 'ping');
    const [first] = await receiver.waitFor(1);
    const wh = new Webhook(bot.webhook_secret);
    const event = wh.verify(first!.body, first!.headers as Record<string, string>) as BotEvent;
    expect(event).toMatchObject({
      type: 'message',
      bot_id: bot.id,
      data: { reply_to: owner.userId, is_group: 0, message: { content: 'ping', from: { id: owner.userId } } },
    });
    expect(first!.headers['webhook-id']).toBe(`msg_${event.data.message.msg_id}`);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(
        first!.body,
        first!.headers as Record<string, string>,
      ),
    ).toThrow();

    // The program answers where the event says, with the bot's token.
    const asBot = { ...owner, token: `Bearer ${bot.token}` } as User;
    await say(asBot, event.data.reply_to, `echo: ${event.data.message.content}`);
    const history = (await call('getMessageList', { toContactId: bot.id, is_group: 0 }, owner.token)).data as any[];
    expect(history.at(-1)).toMatchObject({ content: 'echo: ping', fromUser: { id: bot.id, robot: 1 } });

    // In a group: only a message naming the bot is delivered, not one for everyone or for no one.
    const gid = await makeGroup(server, owner, [member, await fresh('thd')]);
    expect((await call('addGroupUser', { id: gid, user_ids: [bot.id] }, owner.token)).code).toBe(0);
    await say(member, gid, 'no one named');
    await say(owner, gid, '@everyone', [0]);
    await say(member, gid, '@回声 build', [bot.id]);
    const got = await receiver.waitFor(2);
    await settled();
    expect(got).toHaveLength(2);
    const groupEvent = JSON.parse(got[1]!.body) as BotEvent;
    expect(groupEvent.data).toMatchObject({
      reply_to: gid,
      is_group: 1,
      message: { content: '@回声 build', at: [bot.id] },
    });
    expect(await log(owner, bot)).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 1, last_status: 200 }),
      expect.objectContaining({ status: 'delivered', attempts: 1, last_status: 200 }),
    ]);
    // What the bot itself sends is never delivered to it.
    await say(asBot, gid, 'from the bot', [bot.id]);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.got).toHaveLength(2);
  });

  it('tries a failed delivery again with back-off under the same id, and gives up after the last try', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    await hooked(owner, bot);
    receiver.statuses = [500, 503];
    await say(owner, bot.id, 'retry me');
    await receiver.waitFor(1);
    expect(await settled()).toBe(0);
    let [delivery] = await log(owner, bot);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, last_error: 'status' });
    expect(delivery!.next_at - server.clock.now()).toBe(BOT_RETRY_DELAYS_MS[0]);
    // Not due yet: a sweep tries nothing.
    expect(await server.services.botDeliveries.sweep()).toBe(0);
    server.clock.advance(BOT_RETRY_DELAYS_MS[0]);
    expect(await server.services.botDeliveries.sweep()).toBe(1);
    server.clock.advance(BOT_RETRY_DELAYS_MS[1]);
    expect(await server.services.botDeliveries.sweep()).toBe(1);
    [delivery] = await log(owner, bot);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200 });
    const ids = new Set(receiver.got.map((g) => g.headers['webhook-id']));
    expect(ids.size).toBe(1);
    // Each try signed at its own time, with the same secret.
    for (const g of receiver.got) {
      const ts = Number(g.headers['webhook-timestamp']);
      const wh = new Webhook(bot.webhook_secret);
      expect(g.headers['webhook-signature']).toBe(
        wh.sign(String(g.headers['webhook-id']), new Date(ts * 1000), g.body),
      );
    }

    receiver.got.length = 0;
    receiver.statuses = Array(BOT_RETRY_DELAYS_MS.length + 1).fill(500);
    await say(owner, bot.id, 'never answered');
    await receiver.waitFor(1);
    await settled();
    for (const delay of BOT_RETRY_DELAYS_MS) {
      server.clock.advance(delay);
      await server.services.botDeliveries.sweep();
    }
    [delivery] = await log(owner, bot);
    expect(delivery).toMatchObject({ status: 'failed', attempts: BOT_RETRY_DELAYS_MS.length + 1, next_at: 0 });
  });

  it('turns the webhook off after BOT_FAILURES_MAX failures in a row, until its owner sets it again', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    await hooked(owner, bot);
    receiver.statuses = Array(BOT_FAILURES_MAX).fill(500);
    for (let i = 0; i < BOT_FAILURES_MAX; i++) await say(owner, bot.id, `m${i}`);
    await receiver.waitFor(BOT_FAILURES_MAX);
    await settled();
    let [state] = (await call('botList', {}, owner.token)).data as Bot[];
    expect(state).toMatchObject({ webhook_state: 'disabled', failures: BOT_FAILURES_MAX });
    expect((await log(owner, bot)).every((d) => d.status === 'failed')).toBe(true);
    await say(owner, bot.id, 'while disabled');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.got).toHaveLength(BOT_FAILURES_MAX);

    // Renamed, it stays off; its URL saved again, it is on.
    const renamed = await call('botEdit', { bot_id: bot.id, name: '改名' }, owner.token);
    expect(renamed.data).toMatchObject({ name: '改名', webhook_state: 'disabled', webhook_url: receiver.url });
    state = await hooked(owner, bot);
    expect(state).toMatchObject({ webhook_state: 'on', failures: 0 });
    await say(owner, bot.id, 'back on');
    await receiver.waitFor(BOT_FAILURES_MAX + 1);
  });

  it('refuses webhooks the outbound rules refuse, as push services are', async () => {
    const strict = await startServer(target);
    try {
      const owner = await signUp(strict, 'strict_owner');
      const res = await strict.call('botCreate', { name: 'x' }, { token: owner.token });
      const bot = res.data as BotCreated;
      for (const url of [
        receiver.url,
        'http://example.com/hook',
        'https://127.0.0.1/hook',
        'https://169.254.169.254/latest',
        'https://localhost/hook',
        'https://user:pw@example.com/hook',
        'https://10.0.0.7/hook',
        'https://[::1]/hook',
      ]) {
        const set = await strict.call(
          'botEdit',
          { bot_id: bot.id, name: 'x', webhook_url: url },
          { token: owner.token, lang: 'en' },
        );
        expect(set.code, url).toBe(ErrorCodes.WebhookRefused);
      }
    } finally {
      await strict.close();
    }
  });

  it('resets a bot’s token and secret, deletes a bot, and answers another’s bot as none', async () => {
    const owner = await fresh('own');
    const stranger = await fresh('str');
    const bot = await made(owner);
    const reset = (await call('botReset', { bot_id: bot.id }, owner.token)).data as BotCreated;
    expect(reset.token).not.toBe(bot.token);
    expect(reset.webhook_secret).not.toBe(bot.webhook_secret);
    expect((await call('getContacts', {}, `Bearer ${bot.token}`)).code).toBe(-1);
    expect((await call('getContacts', {}, `Bearer ${reset.token}`)).code).toBe(0);

    for (const name of ['botEdit', 'botReset', 'botDelete', 'botDeliveries'] as const) {
      const res = await call(name, { bot_id: bot.id, name: 'x', webhook_url: '' }, stranger.token);
      expect(res.code, name).toBe(ErrorCodes.NotFound);
    }
    expect((await call('botDelete', { bot_id: bot.id }, owner.token)).code).toBe(0);
    expect((await call('botList', {}, owner.token)).data).toEqual([]);
    expect((await call('getContacts', {}, `Bearer ${reset.token}`)).code).toBe(-1);
    expect((await call('botDelete', { bot_id: bot.id }, owner.token)).code).toBe(ErrorCodes.NotFound);
  });

  it('holds BOTS_PER_USER_MAX however many creates arrive at once, and delivers an event once whatever sweeps run', async () => {
    const owner = await fresh('own');
    const creates = await Promise.all(
      Array.from({ length: BOTS_PER_USER_MAX + 3 }, (_, i) => call('botCreate', { name: `b${i}` }, owner.token)),
    );
    expect(creates.filter((r) => r.code === 0)).toHaveLength(BOTS_PER_USER_MAX);
    expect(creates.filter((r) => r.code === ErrorCodes.BotsFull)).toHaveLength(3);
    expect((await call('botList', {}, owner.token)).data).toHaveLength(BOTS_PER_USER_MAX);

    // Another node's deliveries, over the same database, racing this node's for the same retries.
    const bot = creates.find((r) => r.code === 0)!.data as BotCreated;
    await hooked(owner, bot);
    receiver.statuses = [500, 500, 500];
    await say(owner, bot.id, 'one');
    await say(owner, bot.id, 'two');
    await say(owner, bot.id, 'three');
    await receiver.waitFor(3);
    await settled();
    const other = new BotDeliveries(server.ctx);
    try {
      server.clock.advance(BOT_RETRY_DELAYS_MS[0]);
      await Promise.all([server.services.botDeliveries.sweep(), other.sweep(), server.services.botDeliveries.sweep()]);
    } finally {
      await other.stop();
    }
    expect(receiver.got).toHaveLength(6);
    const perEvent = new Map<string, number>();
    for (const g of receiver.got)
      perEvent.set(String(g.headers['webhook-id']), (perEvent.get(String(g.headers['webhook-id'])) ?? 0) + 1);
    expect([...perEvent.values()]).toEqual([2, 2, 2]);
    expect((await log(owner, bot)).every((d) => d.status === 'delivered' && d.attempts === 2)).toBe(true);
  });

  it('stops with its owner: disabled, its token and webhook stop; deleted, the bots are erased', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    await hooked(owner, bot);
    const bearer = `Bearer ${bot.token}`;
    expect((await call('getContacts', {}, bearer)).code).toBe(0);
    await server.ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', owner.userId).execute();
    expect((await call('getContacts', {}, bearer)).code).toBe(-1);
    const other = await fresh('oth');
    expect((await call('friendAdd', { user_id: bot.id }, other.token)).code).toBe(0);
    await say(other, bot.id, 'anyone there?');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.got).toHaveLength(0);
    await server.ctx.db.updateTable('users').set({ status: 1 }).where('id', '=', owner.userId).execute();
    expect((await call('getContacts', {}, bearer)).code).toBe(0);

    expect((await call('accountDelete', { password: owner.password }, owner.token)).code).toBe(0);
    expect((await call('getContacts', {}, bearer)).code).toBe(-1);
    const erased = await server.ctx.repos.users.byId(bot.id);
    expect(erased?.status).toBe(2);
    expect(await server.ctx.db.selectFrom('bots').selectAll().where('user_id', '=', bot.id).execute()).toEqual([]);
  });

  it('works when every account must have a second factor; hears no bot; drops a withdrawn message', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    const otherBot = await made(owner, '另一个');
    await hooked(owner, bot);
    await server.ctx.config.set('account.twoStepRequired', '2');
    try {
      const sent = await say({ ...owner, token: `Bearer ${otherBot.token}` } as User, owner.userId, 'bot to owner');
      expect(sent.fromUser.id).toBe(otherBot.id);
    } finally {
      await server.ctx.config.set('account.twoStepRequired', '0');
    }
    // A bot writing to a bot (friends, as their programs could make them): nothing owed, so two
    // bots never answer each other on end.
    await server.ctx.repos.friends.befriend(otherBot.id, bot.id, server.clock.now());
    await say({ ...owner, token: `Bearer ${otherBot.token}` } as User, bot.id, 'hello bot');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.got).toHaveLength(0);

    // Withdrawn before its retry: the retry sends nothing.
    receiver.statuses = [500];
    const secret = await say(owner, bot.id, '不该发的话');
    await receiver.waitFor(1);
    await settled();
    expect((await call('undoMessage', { id: secret.msg_id }, owner.token)).code).toBe(0);
    server.clock.advance(BOT_RETRY_DELAYS_MS[0]);
    await settled();
    expect(receiver.got).toHaveLength(1);
    const [given] = await log(owner, bot);
    expect(given).toMatchObject({ status: 'failed', last_error: 'withdrawn' });
    const stored = await server.ctx.db
      .selectFrom('bot_deliveries')
      .select('payload')
      .where('id', '=', given!.id)
      .executeTakeFirst();
    expect(stored?.payload).toBe('');
  });

  it('lets one node only record a try: a claim read before another node’s try loses', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    await hooked(owner, bot);
    receiver.statuses = [500];
    await say(owner, bot.id, 'aba');
    await receiver.waitFor(1);
    await settled();
    server.clock.advance(BOT_RETRY_DELAYS_MS[0]);
    const repo = server.ctx.repos.bots;
    const [stale] = await repo.due(server.clock.now(), 16);
    // Another node takes it, and its try fails fast: the claim is free again, with one try more.
    expect(await repo.claim(stale!, server.clock.now() + 30_000)).toBe(true);
    await repo.failed(
      stale!,
      { status: 500, error: 'status', nextAt: server.clock.now() + 30_000 },
      server.clock.now(),
      10,
    );
    expect(await repo.claim(stale!, server.clock.now() + 30_000)).toBe(false);
    await repo.failed(stale!, { status: 500, error: 'status', nextAt: server.clock.now() }, server.clock.now(), 10);
    const [delivery] = await log(owner, bot);
    expect(delivery).toMatchObject({ attempts: 2, status: 'pending' });
    expect((await call('botList', {}, owner.token)).data[0].failures).toBe(2);
  });

  it('resets once per call, and deletes once however many calls arrive at once', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    const resets = await Promise.all([1, 2, 3].map(() => call('botReset', { bot_id: bot.id }, owner.token)));
    expect(resets.every((r) => r.code === 0)).toBe(true);
    const tokens = resets.map((r) => (r.data as BotCreated).token);
    expect(new Set(tokens).size).toBe(3);
    const working = [];
    for (const token of [bot.token, ...tokens])
      working.push((await call('getContacts', {}, `Bearer ${token}`)).code === 0);
    expect(working.filter(Boolean)).toHaveLength(1);
    const live = (await server.ctx.db.selectFrom('access_tokens').select('id').where('user_id', '=', bot.id).execute())
      .length;
    expect(live).toBe(1);

    const deletes = await Promise.all([1, 2, 3].map(() => call('botDelete', { bot_id: bot.id }, owner.token)));
    expect(deletes.every((r) => r.code === 0 || r.code === ErrorCodes.NotFound)).toBe(true);
    expect(deletes.some((r) => r.code === 0)).toBe(true);
    expect((await server.ctx.repos.users.byId(bot.id))?.status).toBe(2);
    expect((await call('botList', {}, owner.token)).data).toEqual([]);
  });

  it('hears nothing from one who blocked it or unfriended it, and cannot answer them', async () => {
    const owner = await fresh('own');
    const bot = await made(owner);
    await hooked(owner, bot);
    const asBot = `Bearer ${bot.token}`;
    const blocker = await fresh('blk');
    expect((await call('friendAdd', { user_id: bot.id }, blocker.token)).code).toBe(0);
    expect((await call('blockAdd', { user_id: bot.id }, blocker.token)).code).toBe(0);
    const toBlocker = await call(
      'sendMessage',
      { id: crypto.randomUUID(), toContactId: blocker.userId, type: 'text', content: 'hello?' },
      asBot,
    );
    expect(toBlocker.code).toBe(ErrorCodes.NotFriendChat);

    // runMode 2, the default: private chats between friends only.
    const exFriend = await fresh('exf');
    expect((await call('friendAdd', { user_id: bot.id }, exFriend.token)).code).toBe(0);
    expect((await call('friendDel', { id: bot.id }, exFriend.token)).code).toBe(0);
    const sent = await call(
      'sendMessage',
      { id: crypto.randomUUID(), toContactId: bot.id, type: 'text', content: 'after unfriending' },
      exFriend.token,
    );
    expect(sent.code).toBe(ErrorCodes.NotFriendChat);
    const answered = await call(
      'sendMessage',
      { id: crypto.randomUUID(), toContactId: exFriend.userId, type: 'text', content: 'still there?' },
      asBot,
    );
    expect(answered.code).toBe(ErrorCodes.NotFriendChat);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.got).toHaveLength(0);
  });

  it('keeps bot routes to a session and to the owner', async () => {
    const owner = await fresh('own');
    const friend = await fresh('frd');
    await makeFriends(server, owner, friend);
    const bot = await made(owner);
    const token = (
      await call(
        'tokenCreate',
        { name: 'all', scopes: ['messages:read', 'messages:send', 'groups:manage'], days: 0 },
        owner.token,
      )
    ).data.token as string;
    for (const name of ['botCreate', 'botList', 'botEdit', 'botReset', 'botDelete', 'botDeliveries'] as const)
      expect((await call(name, { bot_id: bot.id, name: 'x', webhook_url: '' }, `Bearer ${token}`)).code, name).toBe(
        ErrorCodes.TokenScope,
      );
    expect((await call('botList', {}, friend.token)).data).toEqual([]);
  });
});
