import {
  ErrorCodes,
  GroupRoles,
  ROBOT_BODY_MAX,
  ROBOT_MESSAGES_PER_MINUTE,
  ROBOT_WEBHOOK_PATH,
  ROBOTS_PER_GROUP_MAX,
  RobotErrcodes,
  translate,
  type GroupRobot,
  type RouteName,
} from '@sparrow/protocol';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, makeGroup, signUp, startServer, TestSocket, type TestServer } from './harness';

/**
 * Group robots (群机器人, docs/protocol.md §10): a group's owner and administrators add them and
 * hold their webhooks; a POST to one, in WeCom's JSON or Sparrow's, posts into the group as the
 * robot (mentions, markdown, images, news), at most ROBOT_MESSAGES_PER_MINUTE a minute; a reset
 * webhook, a removed robot and a disbanded group answer 93000; a robot's account is no one's.
 */

type User = Awaited<ReturnType<typeof signUp>>;

describeEachDb('group robots', (target) => {
  let server: TestServer;
  let n = 0;
  const fresh = (name: string): Promise<User> => signUp(server, `${name}${++n}bot`, 'secret123', `${name}${n}`);
  /** The realname `fresh` gave. */
  const nameOf = (u: User) => u.account.replace(/bot$/, '');
  const call = (name: RouteName, body: object, u: User | string) =>
    server.call(name, body, { token: typeof u === 'string' ? u : u.token, lang: 'en' });
  /** Posts to a webhook by its URL's path and query, in `lang`. */
  const hook = async (url: string, payload: string | object, lang = 'en') => {
    const { pathname, search } = new URL(url);
    const res = await server.post(`${pathname}${search}`, payload, { 'accept-language': lang });
    expect(res.status).toBe(200);
    return res.json as unknown as { errcode: number; errmsg: string };
  };
  const added = async (owner: User, gid: string, name = '构建通知'): Promise<GroupRobot & { url: string }> => {
    const res = await call('groupRobotAdd', { group_id: gid, name }, owner);
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };
  const groupOf = async () => {
    const owner = await fresh('own');
    const member = await fresh('mem');
    const other = await fresh('oth');
    const gid = await makeGroup(server, owner, [member, other]);
    return { owner, member, other, gid };
  };
  const history = async (gid: string, u: User) =>
    (await call('getMessageList', { toContactId: gid, is_group: 1 }, u)).data as any[];

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('posts WeCom text into the group as the robot, naming members by account, phone and @all', async () => {
    const { owner, member, other, gid } = await groupOf();
    const phone = `1380000${String(n).padStart(4, '0')}`;
    await server.ctx.db.updateTable('users').set({ phone }).where('id', '=', other.userId).execute();
    const robot = await added(owner, gid);
    expect(robot.url).toMatch(new RegExp(`^http://[^/]+${ROBOT_WEBHOOK_PATH}\\?key=srk_[A-Za-z0-9_-]{43}$`));
    expect(robot.avatar).toBe('/static/img/robot.png');
    const sock = await TestSocket.bound(server, member.userId, member.token);
    try {
      const answer = await hook(robot.url, {
        msgtype: 'text',
        text: {
          content: '构建 #42 通过',
          mentioned_list: [member.account, 'nobody-here', '@all'],
          mentioned_mobile_list: [phone, '13999999999'],
        },
      });
      expect(answer).toEqual({ errcode: 0, errmsg: 'ok' });
      const pushed = await sock.waitFor((f) => f.type === 'group' && f.data?.content?.startsWith('构建 #42'));
      expect(pushed.data.fromUser).toMatchObject({ id: robot.user_id, displayName: '构建通知', robot: 1 });
      expect(pushed.data.at.sort()).toEqual([0, member.userId, other.userId].sort());
      expect(pushed.data).not.toHaveProperty('role');
      expect(pushed.data.content).toBe(`构建 #42 通过\n@所有人 @${nameOf(member)} @${nameOf(other)}`);
    } finally {
      sock.close();
    }
    const [last] = (await history(gid, member)).slice(-1);
    expect(last.fromUser.robot).toBe(1);
    const listed = (await call('groupRobotList', { group_id: gid }, owner)).data as GroupRobot[];
    expect(listed[0]!.last_used).toBeGreaterThan(0);
  });

  it('takes Sparrow’s shape once per id, markdown with its mentions, and news as links', async () => {
    const { owner, member, gid } = await groupOf();
    const robot = await added(owner, gid);
    const body = { type: 'text', content: '部署开始', at: [member.userId], id: 'deploy-7' };
    expect((await hook(robot.url, body)).errcode).toBe(0);
    expect((await hook(robot.url, body)).errcode).toBe(0);
    let rows = await history(gid, member);
    expect(rows.filter((m) => m.content.startsWith('部署开始'))).toHaveLength(1);

    const md = await hook(robot.url, {
      msgtype: 'markdown',
      markdown: {
        content: `**构建失败** <font color="warning">3 个用例</font> <@${member.account}>\n[详情](https://ci.example/42)`,
      },
    });
    expect(md.errcode).toBe(0);
    const news = await hook(robot.url, {
      msgtype: 'news',
      news: { articles: [{ title: '发布说明 [v2]', description: '新功能', url: 'https://example.com/notes' }] },
    });
    expect(news.errcode).toBe(0);
    rows = await history(gid, member);
    const [mdRow, newsRow] = rows.slice(-2);
    expect(mdRow.type).toBe('text');
    expect(mdRow.extends.markdown).toBe(1);
    expect(mdRow.content).toBe(`**构建失败** 3 个用例 @${nameOf(member)}\n[详情](https://ci.example/42)`);
    expect(mdRow.at).toEqual([member.userId]);
    expect(newsRow.extends.markdown).toBe(1);
    expect(newsRow.content).toBe('[**发布说明 \\[v2\\]**](https://example.com/notes)\n新功能');
  });

  it('posts an image whose md5 matches, and refuses one that does not or is no image', async () => {
    const { owner, member, gid } = await groupOf();
    const robot = await added(owner, gid);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3b82f6' } })
      .png()
      .toBuffer();
    const md5 = createHash('md5').update(png).digest('hex');
    const ok = await hook(robot.url, { msgtype: 'image', image: { base64: png.toString('base64'), md5 } });
    expect(ok).toEqual({ errcode: 0, errmsg: 'ok' });
    const [img] = (await history(gid, member)).slice(-1);
    expect(img.type).toBe('image');
    expect(img.extends).toMatchObject({ width: 40, height: 30 });
    expect((await server.get(img.content)).status).toBe(200);

    const wrongMd5 = await hook(robot.url, {
      msgtype: 'image',
      image: { base64: png.toString('base64'), md5: 'f'.repeat(32) },
    });
    expect(wrongMd5).toEqual({ errcode: RobotErrcodes.invalidImage, errmsg: translate('en', 'robot.invalidImage') });
    const text = Buffer.from('not an image at all').toString('base64');
    expect((await hook(robot.url, { type: 'image', base64: text })).errcode).toBe(RobotErrcodes.invalidImage);
    expect((await hook(robot.url, { type: 'image', base64: '%%%%' })).errcode).toBe(RobotErrcodes.invalidImage);
  });

  it('answers what it cannot take with WeCom’s codes in the caller’s language, bounded before any work', async () => {
    const { owner, gid } = await groupOf();
    const robot = await added(owner, gid);
    expect(await hook(robot.url, 'not json{')).toEqual({
      errcode: RobotErrcodes.invalidParameter,
      errmsg: expect.any(String),
    });
    expect(await hook(robot.url, { msgtype: 'voice' })).toEqual({
      errcode: RobotErrcodes.invalidMessageType,
      errmsg: translate('en', 'robot.invalidType', { types: 'text, markdown, image, news' }),
    });
    expect(await hook(robot.url, { msgtype: 'text', text: { content: '   ' } }, 'fr')).toEqual({
      errcode: RobotErrcodes.emptyContent,
      errmsg: translate('fr', 'robot.emptyContent'),
    });
    expect(await hook(robot.url, { msgtype: 'text', text: {} }, 'zh-Hans')).toEqual({
      errcode: RobotErrcodes.invalidParameter,
      errmsg: translate('zh-Hans', 'robot.invalidField', { field: 'text.content' }),
    });
    expect((await hook(robot.url, { type: 'text', content: 'x'.repeat(2049) })).errcode).toBe(
      RobotErrcodes.invalidParameter,
    );
    expect((await hook(robot.url, [1, 2])).errcode).toBe(RobotErrcodes.invalidParameter);
    const huge = { type: 'text', content: 'x'.repeat(ROBOT_BODY_MAX + 10) };
    const started = Date.now();
    expect((await hook(robot.url, huge)).errcode).toBe(RobotErrcodes.invalidParameter);
    expect(Date.now() - started).toBeLessThan(5_000);
    const base = robot.url.split('?')[0]!;
    for (const url of [base, `${base}?key=`, `${base}?key=srk_nope`, `${base}?key=${'a'.repeat(500)}`])
      expect(await hook(url, { msgtype: 'text', text: { content: 'hi' } })).toEqual({
        errcode: RobotErrcodes.invalidKey,
        errmsg: translate('en', 'robot.invalidKey'),
      });
  });

  it('takes ROBOT_MESSAGES_PER_MINUTE posts a minute per robot, each robot its own', async () => {
    const { owner, member, gid } = await groupOf();
    const [one, two] = [await added(owner, gid, 'one'), await added(owner, gid, 'two')];
    const answers = await Promise.all(
      Array.from({ length: ROBOT_MESSAGES_PER_MINUTE + 3 }, (_, i) =>
        hook(one.url, { type: 'text', content: `n${i}` }),
      ),
    );
    expect(answers.filter((a) => a.errcode === 0)).toHaveLength(ROBOT_MESSAGES_PER_MINUTE);
    expect(answers.filter((a) => a.errcode === RobotErrcodes.tooMany)).toHaveLength(3);
    expect((await hook(two.url, { type: 'text', content: 'other robot' })).errcode).toBe(0);
    // A retry of a post that went is answered as it was, whatever the minute's budget says.
    expect((await hook(two.url, { type: 'text', content: 'once', id: 'retried-post' })).errcode).toBe(0);
    for (let i = 0; i < ROBOT_MESSAGES_PER_MINUTE; i++) await hook(two.url, { type: 'text', content: `fill${i}` });
    expect((await hook(two.url, { type: 'text', content: 'once', id: 'retried-post' })).errcode).toBe(0);
    expect((await hook(two.url, { type: 'text', content: 'new' })).errcode).toBe(RobotErrcodes.tooMany);
    server.clock.advance(61_000);
    expect((await hook(one.url, { type: 'text', content: 'next minute' })).errcode).toBe(0);
    const stored = await server.ctx.db
      .selectFrom('messages')
      .select('content')
      .where('from_user', '=', one.user_id)
      .execute();
    expect(stored.filter((m) => /^n\d+$/.test(m.content))).toHaveLength(ROBOT_MESSAGES_PER_MINUTE);
    expect((await history(gid, member)).at(-1).content).toBe('next minute');
  });

  it('kills the old webhook on reset, the robot’s on removal and every one when the group is disbanded', async () => {
    const { owner, gid } = await groupOf();
    const robot = await added(owner, gid);
    const reset = (await call('groupRobotReset', { robot_id: robot.id }, owner)).data as GroupRobot;
    expect(reset.url).not.toBe(robot.url);
    const post = { msgtype: 'text', text: { content: 'hi' } };
    expect((await hook(robot.url, post)).errcode).toBe(RobotErrcodes.invalidKey);
    expect((await hook(reset.url!, post)).errcode).toBe(0);
    const listed = (await call('groupRobotList', { group_id: gid }, owner)).data as GroupRobot[];
    expect(listed.map((r) => r.url)).toEqual([reset.url]);

    expect((await call('groupRobotRemove', { robot_id: robot.id }, owner)).code).toBe(0);
    expect((await hook(reset.url!, post)).errcode).toBe(RobotErrcodes.invalidKey);
    expect((await call('groupRobotRemove', { robot_id: robot.id }, owner)).code).toBe(ErrorCodes.NotFound);
    expect((await call('groupRobotList', { group_id: gid }, owner)).data).toEqual([]);

    const other = await added(owner, gid);
    expect((await call('removeGroup', { id: gid }, owner)).code).toBe(0);
    expect((await hook(other.url, post)).errcode).toBe(RobotErrcodes.invalidKey);
  });

  it('lets administrators manage robots and members only list them; a robot’s account is no one’s', async () => {
    const owner = await fresh('own');
    const member = await fresh('mem');
    const admin = await fresh('adm');
    const gid = await makeGroup(server, owner, [member, admin]);
    expect((await call('setManager', { id: gid, user_id: admin.userId, role: GroupRoles.Admin }, owner)).code).toBe(0);
    const robot = await added(admin, gid, '值班');
    expect((await call('groupRobotAdd', { group_id: gid, name: 'x' }, member)).code).toBe(ErrorCodes.Forbidden);
    expect((await call('groupRobotReset', { robot_id: robot.id }, member)).code).toBe(ErrorCodes.Forbidden);
    const seen = (await call('groupRobotList', { group_id: gid }, member)).data as GroupRobot[];
    expect(seen).toEqual([expect.objectContaining({ id: robot.id, name: '值班' })]);
    expect(seen[0]).not.toHaveProperty('url');

    const renamed = await call('groupRobotEdit', { robot_id: robot.id, name: '值班机器人' }, owner);
    expect(renamed.data.name).toBe('值班机器人');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const pic = await server.upload(
      'uploadRobotAvatar',
      { name: 'a.png', bytes: png, type: 'image/png' },
      {
        token: owner.token,
        fields: { robot_id: String(robot.id) },
      },
    );
    expect(pic.json.code, pic.json.msg).toBe(0);
    expect(pic.json.data.avatar).toMatch(/^\/storage\/.+\.webp$/);

    // The account it posts as: never signs in, never found, not on the console.
    const account = (await server.ctx.repos.users.byId(robot.user_id))!;
    const login = await server.call('login', { account: account.account, password: '!' }, { lang: 'en' });
    expect(login.code).not.toBe(0);
    expect((await call('searchUser', { keywords: account.account }, member)).data).toEqual([]);
    expect((await call('getUserInfo', { user_id: robot.user_id }, member)).code).toBe(ErrorCodes.UserNotFound);
  });

  it('holds ROBOTS_PER_GROUP_MAX however many adds arrive at once, and one of resets made at once', async () => {
    const { owner, gid } = await groupOf();
    const adds = await Promise.all(
      Array.from({ length: ROBOTS_PER_GROUP_MAX + 5 }, (_, i) =>
        call('groupRobotAdd', { group_id: gid, name: `r${i}` }, owner),
      ),
    );
    expect(adds.filter((r) => r.code === 0)).toHaveLength(ROBOTS_PER_GROUP_MAX);
    expect(adds.filter((r) => r.code === ErrorCodes.RobotsFull)).toHaveLength(5);
    expect((await call('groupRobotList', { group_id: gid }, owner)).data).toHaveLength(ROBOTS_PER_GROUP_MAX);

    const robot = adds.find((r) => r.code === 0)!.data as GroupRobot;
    const resets = await Promise.all([1, 2, 3].map(() => call('groupRobotReset', { robot_id: robot.id }, owner)));
    const urls = resets.map((r) => (r.data as GroupRobot).url!);
    const working = [];
    for (const url of urls) working.push((await hook(url, { type: 'text', content: 'which?' })).errcode === 0);
    expect(working.filter(Boolean)).toHaveLength(1);

    const id = 'same-post-at-once';
    const live = urls[working.indexOf(true)]!;
    const posts = await Promise.all([1, 2, 3, 4].map(() => hook(live, { type: 'text', content: 'once', id })));
    expect(posts.every((p) => p.errcode === 0)).toBe(true);
    const rows = await history(gid, owner);
    expect(rows.filter((m) => m.content === 'once')).toHaveLength(1);
  });

  it('speaks through the group’s mute, and under the keyword lists: a refused or held word refused, a replaced one replaced', async () => {
    const { owner, member, gid } = await groupOf();
    const robot = await added(owner, gid);
    expect((await call('groupSetting', { id: gid, setting: { nospeak: 1 } }, owner)).code).toBe(0);
    expect(
      (await call('sendMessage', { id: 'muted-member', toContactId: gid, type: 'text', content: 'hi' }, member)).code,
    ).toBe(ErrorCodes.GroupNoSpeakAdmins);
    expect((await hook(robot.url, { type: 'text', content: '全员禁言时机器人照常推送' })).errcode).toBe(0);

    const admin = await fresh('kwa');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
    const words = { refuse: `机器禁词${n}号`, review: `机器审核${n}号`, replace: `机器坏词${n}号` };
    for (const action of ['refuse', 'review', 'replace'] as const) {
      const list = await call('manageKeywordListCreate', { name: `robot-${action}-${n}`, action }, admin);
      expect(list.code, list.msg).toBe(0);
      expect((await call('manageKeywordAdd', { list_id: list.data.id, words: words[action] }, admin)).code).toBe(0);
    }
    for (const word of [words.refuse, words.review])
      expect(await hook(robot.url, { msgtype: 'text', text: { content: `构建 ${word}` } })).toEqual({
        errcode: RobotErrcodes.refused,
        errmsg: translate('en', 'errors.KeywordRefused'),
      });
    expect((await hook(robot.url, { type: 'markdown', content: `**${words.replace}**` })).errcode).toBe(0);
    const rows = await history(gid, member);
    expect(rows.at(-1).content).not.toContain(words.replace);
    expect(rows.map((m) => m.content).join('\n')).not.toMatch(new RegExp(`${words.refuse}|${words.review}`));
  });

  it('removes a robot once however many removals arrive at once, and a post racing them stores or refuses cleanly', async () => {
    const { owner, member, gid } = await groupOf();
    const robot = await added(owner, gid);
    const [posted, ...removals] = await Promise.all([
      hook(robot.url, { type: 'text', content: 'racing the removal' }),
      ...[1, 2, 3].map(() => call('groupRobotRemove', { robot_id: robot.id }, owner)),
    ]);
    expect(removals.filter((r) => r.code === 0)).toHaveLength(1);
    expect(removals.filter((r) => r.code === ErrorCodes.NotFound)).toHaveLength(2);
    expect([RobotErrcodes.ok, RobotErrcodes.invalidKey]).toContain(posted!.errcode);
    const stored = (await history(gid, member)).filter((m) => m.content === 'racing the removal');
    expect(stored).toHaveLength(posted!.errcode === 0 ? 1 : 0);
    expect((await hook(robot.url, { type: 'text', content: 'after' })).errcode).toBe(RobotErrcodes.invalidKey);
  });

  it('lets a token with groups:manage manage robots, and a token without it not', async () => {
    const { owner, gid } = await groupOf();
    const make = async (scopes: string[]) =>
      ((await call('tokenCreate', { name: 'ci', scopes, days: 0 }, owner)).data as { token: string }).token;
    const manage = `Bearer ${await make(['groups:manage'])}`;
    const read = `Bearer ${await make(['messages:read'])}`;
    expect((await call('groupRobotAdd', { group_id: gid, name: 'tok' }, manage)).code).toBe(0);
    expect((await call('groupRobotList', { group_id: gid }, read)).code).toBe(ErrorCodes.TokenScope);
  });
});
