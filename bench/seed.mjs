// Prepares a benchmark database through the server's own code: schema, configuration, users and one
// session per user. Run under tsx (it imports the server's TypeScript). Logging in over HTTP would
// cost one scrypt per user, which for 5 000 users takes longer than the benchmark itself.
//
//   node --import tsx bench/seed.mjs <out.json> <users> [config.path=value …] [--friends=K] [--group-size=G]
//
// --friends=K makes every user a friend of the K nearest users around a ring of all of them (K even);
// --group-size=G puts the users, G after G, in groups owned by the first of each.
// Reads DATA_DIR / DATABASE_URL like the server. Writes [{ id, account, token, group? }] to <out.json>,
// `group` being the id of the user's group.
import fs from 'node:fs';
import { DEFAULT_GROUP_SETTING, GroupRoles } from '@sparrow/protocol';
import { migrate, openDb } from '../packages/server/src/db/index.ts';
import { hashPassword } from '../packages/server/src/lib/crypto.ts';
import { SessionRepo } from '../packages/server/src/modules/auth/session-repo.ts';
import { SessionService } from '../packages/server/src/modules/auth/session.ts';
import { GroupRepo } from '../packages/server/src/modules/group/repo.ts';
import { ConfigService } from '../packages/server/src/modules/system/config-service.ts';
import { ConfigRepo } from '../packages/server/src/modules/system/repo.ts';
import { UserRepo } from '../packages/server/src/modules/user/repo.ts';

const args = process.argv.slice(2);
const option = (name) => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? 0);
const [out, count, ...settings] = args.filter((a) => !a.startsWith('--'));
const n = Number(count);
const friends = option('friends');
const groupSize = option('group-size');
if (!out || !Number.isInteger(n) || n < 0 || friends % 2 !== 0 || friends >= n || groupSize < 0) {
  console.error('usage: seed.mjs <out.json> <users> [path=value …] [--friends=K (even, < users)] [--group-size=G]');
  process.exit(2);
}

const opened = openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR ?? 'data' });
try {
  await migrate(opened);
  const config = new ConfigService(new ConfigRepo(opened.db));
  await config.load();
  for (const s of settings) {
    const eq = s.indexOf('=');
    await config.set(s.slice(0, eq), s.slice(eq + 1));
  }
  // Every benchmark user has the same password: one hash serves them all.
  const passwordHash = await hashPassword('bench-password');
  const now = Date.now();
  const made = [];
  await opened.db.transaction().execute(async (trx) => {
    const users = new UserRepo(trx);
    const sessions = new SessionService({ users, sessions: new SessionRepo(trx) }, Date.now);
    for (let i = 0; i < n; i++) {
      const account = `bench${String(i).padStart(5, '0')}`;
      const row = await users.insert({
        account,
        password_hash: passwordHash,
        realname: `Bench ${i}`,
        email: '',
        phone: '',
        avatar: '',
        sex: 2,
        motto: '',
        is_auth: 0,
        role: 0,
        status: 1,
        language: '',
        create_time: now,
        update_time: now,
      });
      const s = await sessions.create(row.id, {
        cid: `bench-${i}`,
        isMobile: false,
        userAgent: 'sparrow-bench',
        ip: '127.0.0.1',
      });
      made.push({ id: row.id, account, token: `bearer ${s.token}` });
    }
  });
  const rows = [];
  for (let i = 0; i < n; i++) {
    for (let k = 1; k <= friends / 2; k++) {
      const a = made[i].id;
      const b = made[(i + k) % n].id;
      rows.push({ user_id: a, friend_user_id: b, nickname: '', create_time: now });
      rows.push({ user_id: b, friend_user_id: a, nickname: '', create_time: now });
    }
  }
  for (let i = 0; i < rows.length; i += 500) {
    await opened.db
      .insertInto('friends')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  if (groupSize > 0) {
    const groups = new GroupRepo(opened.db);
    for (let i = 0; i < n; i += groupSize) {
      const members = made.slice(i, i + groupSize);
      const group = await groups.createWithMembers(
        `Bench group ${i / groupSize + 1}`,
        members[0].id,
        JSON.stringify(DEFAULT_GROUP_SETTING),
        now,
        members.map((m, j) => ({ userId: m.id, role: j === 0 ? GroupRoles.Owner : GroupRoles.Member })),
      );
      for (const m of members) m.group = group.id;
    }
  }
  fs.writeFileSync(out, JSON.stringify(made));
} finally {
  await opened.close();
}
