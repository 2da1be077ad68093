/**
 * The moments visibility rule in its two forms (`modules/moments/visibility.ts`): the predicate a
 * single read asks (Access.seesMoment) and the SQL that an album and the timelines ask, written at
 * publish and on befriending. Every (visibility × relation × action) case runs against both, so a
 * change to one that the other does not follow fails here.
 */
import { randomUUID } from 'node:crypto';
import { MomentVisibility } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { admitsFriend } from '../src/modules/moments';
import { describeEachDb, startServer, userRow, type TestServer } from './harness';

const RELATIONS = ['author', 'namedFriend', 'friend', 'namedLater', 'friendLater', 'stranger'] as const;
type Relation = (typeof RELATIONS)[number];

/** Who may see a post of `visibility`, by the predicate: the author; a friend (now or later) as it admits them. */
function expected(visibility: number, relation: Relation): boolean {
  if (relation === 'author') return true;
  if (relation === 'stranger') return false;
  return admitsFriend(visibility, relation === 'namedFriend' || relation === 'namedLater');
}

describeEachDb('the moments visibility rule, one rule in two forms', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('the predicate is the table of docs/product.md §6', () => {
    const table = Object.values(MomentVisibility).map((v) => [v, admitsFriend(v, true), admitsFriend(v, false)]);
    expect(table).toEqual([
      [MomentVisibility.Friends, true, true],
      [MomentVisibility.Private, false, false],
      [MomentVisibility.Only, true, false],
      [MomentVisibility.Except, false, true],
    ]);
  });

  it('every visibility × relation answers alike by the predicate, the album, the timeline at publish and on befriending', async () => {
    const { db, sessions, repos, access } = server.ctx;
    const suffix = randomUUID().slice(0, 8);
    const rows = await db
      .insertInto('users')
      .values(RELATIONS.map((r) => userRow(`${r.slice(0, 12)}_${suffix}`)))
      .returning(['id', 'account'])
      .execute();
    const id = Object.fromEntries(
      RELATIONS.map((r) => [r, rows.find((row) => row.account === `${r.slice(0, 12)}_${suffix}`)!.id]),
    ) as Record<Relation, number>;
    const now = server.clock.now();
    for (const r of ['namedFriend', 'friend'] as const) {
      await repos.friends.befriend(id.author, id[r], now);
      await repos.moments.befriended(id.author, id[r]);
    }
    const { token } = await sessions.create(id.author, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
    const posts = new Map<number, number>();
    for (const visibility of Object.values(MomentVisibility)) {
      const res = await server.call(
        'momentsPublish',
        { id: randomUUID(), content: `v${visibility}`, visibility, user_ids: [id.namedFriend, id.namedLater] },
        { token: `bearer ${token}` },
      );
      expect(res.code, res.msg).toBe(0);
      posts.set(visibility, res.data.id);
    }
    // Friends made after the posts: the timeline is written for them on befriending.
    for (const r of ['namedLater', 'friendLater'] as const) {
      await repos.friends.befriend(id.author, id[r], now);
      await repos.moments.befriended(id.author, id[r]);
    }

    const wrong: string[] = [];
    for (const [visibility, postId] of posts) {
      const post = (await repos.moments.byId(postId))!;
      const timeline = new Set(
        (await db.selectFrom('moment_timeline').select('user_id').where('post_id', '=', postId).execute()).map(
          (r) => r.user_id,
        ),
      );
      for (const relation of RELATIONS) {
        const reader = id[relation];
        const want = expected(visibility, relation);
        const album = (await repos.moments.album(reader, id.author, { beforeId: 0, limit: 50, now })).some(
          (p) => p.id === postId,
        );
        const answers = {
          'Access.seesMoment (predicate)': await access.seesMoment(reader, post, now),
          'album (SQL)': album,
          [relation.endsWith('Later') ? 'timeline on befriending (SQL)' : 'timeline at publish (SQL)']:
            timeline.has(reader),
        };
        for (const [form, got] of Object.entries(answers))
          if (got !== want) wrong.push(`visibility ${visibility}, ${relation}, ${form}: ${got}, not ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
