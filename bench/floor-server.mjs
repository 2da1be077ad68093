// The floor under Sparrow's private-message latency: the database work a private send must do, on
// Sparrow's own schema and data, and nothing else. No validation, no rules, no rate limits, no
// Fastify, no Kysely: raw prepared statements on a copy of the seeded database, with Sparrow's
// checkpoint thread, behind the socket handshake of relay.mjs. One HTTP call:
//   POST /send {to, id, content}, `authorization` as Sparrow's: the session by token, the retry
//     lookup, the peer, the message and both sides' conversation rows in one transaction, the
//     friend rows; then a `simple` frame shaped like Sparrow's (the message and the sender as the
//     receiver's contact) to the receiver, and the message as the answer.
// What Sparrow adds to these figures is the cost of its application; what these add to the
// baseline's is the cost of the data a send has to read and write.
//
//   node --import tsx bench/floor-server.mjs <seeded sparrow.db> <copy to create>
import { hash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Checkpointer } from '../packages/server/src/db/checkpointer.ts';
import { ChatType, pairKey } from '../packages/server/src/modules/im/repo.ts';
import { push, serve } from './relay.mjs';

const [source, file] = process.argv.slice(2);
if (!source || !file) {
  console.error('usage: floor-server.mjs <seeded sparrow.db> <copy to create>');
  process.exit(2);
}
const seeded = new SQLite(source, { readonly: true });
seeded.exec(`vacuum into '${file.replaceAll("'", "''")}'`);
seeded.close();
const db = new SQLite(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
new Checkpointer(db, (err) => console.error(err));

const session = db.prepare(
  `select u.*, s.id as session_id, s.expires_at, s.revoked_at
   from sessions as s inner join users as u on u.id = s.user_id where s.token_hash = ?`,
);
const retry = db.prepare('select * from messages where from_user = ? and client_id = ?');
const userById = db.prepare('select * from users where id = ?');
const COLUMNS = ['client_id', 'from_user', 'chat_type', 'to_id', 'chat_key', 'type', 'content', 'create_time'];
const insert = db.prepare(
  `insert into messages (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')}) returning *`,
);
const countUnread = db.prepare(
  `update conversations
   set unread = case when user_id = ? then 0 else unread + 1 end,
       read_msg_id = case when user_id = ? then ? else read_msg_id end
   where chat_key = ? and user_id in (?, ?) returning *`,
);
const openConversation = db.prepare(
  `insert into conversations (user_id, chat_key, unread, read_msg_id) values (?, ?, ?, ?)
   on conflict (user_id, chat_key) do update set unread = unread + excluded.unread returning *`,
);
const friends = db.prepare(
  'select * from friends where (user_id = ? and friend_user_id = ?) or (user_id = ? and friend_user_id = ?)',
);

const store = db.transaction((message) => {
  const row = insert.get(COLUMNS.map((c) => message[c]));
  const sides = countUnread.all(
    message.from_user,
    message.from_user,
    row.id,
    row.chat_key,
    message.from_user,
    row.to_id,
  );
  for (const id of [message.from_user, row.to_id]) {
    if (sides.some((r) => r.user_id === id)) continue;
    const sender = id === message.from_user;
    sides.push(openConversation.get(id, row.chat_key, sender ? 0 : 1, sender ? row.id : 0));
  }
  return { row, sides };
});

const present = (row, from) => ({
  id: row.client_id,
  msg_id: row.id,
  type: row.type,
  content: row.content,
  sendTime: row.create_time,
  toContactId: row.to_id,
  toUser: row.to_id,
  is_group: 0,
  status: 'succeed',
  is_read: 0,
  at: [],
  pid: 0,
  fromUser: { id: from.id, displayName: from.realname, avatar: from.avatar },
  extends: {},
});

serve({
  '/send': (body, req) => {
    const token = String(req.headers.authorization ?? '').replace(/^bearer\s+/i, '');
    const me = session.get(hash('sha256', token));
    if (!me || me.revoked_at !== null || me.expires_at <= Date.now()) throw new Error('no session');
    const stored = retry.get(me.id, body.id);
    if (stored) return present(stored, me);
    const peer = userById.get(body.to);
    if (!peer) throw new Error('no such user');
    const { row, sides } = store({
      client_id: body.id,
      from_user: me.id,
      chat_type: ChatType.Private,
      to_id: peer.id,
      chat_key: pairKey(me.id, peer.id),
      type: 'text',
      content: body.content,
      create_time: Date.now(),
    });
    const remarks = friends.all(me.id, peer.id, peer.id, me.id);
    const theirs = sides.find((r) => r.user_id === peer.id);
    const contactInfo = {
      id: me.id,
      user_id: me.id,
      displayName: remarks.find((f) => f.user_id === peer.id)?.nickname || me.realname,
      realname: me.realname,
      avatar: me.avatar,
      account: me.account,
      motto: me.motto,
      is_group: 0,
      is_online: 1,
      unread: theirs.unread,
      is_top: theirs.is_top,
      is_notice: theirs.is_notice,
      is_at: theirs.is_at,
    };
    const data = { ...present(row, me), contactInfo };
    push(peer.id, JSON.stringify({ type: 'simple', data, time: Math.floor(row.create_time / 1000) }));
    return present(row, me);
  },
});
