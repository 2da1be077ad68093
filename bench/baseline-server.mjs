// The baseline the benchmarks compare Sparrow with: the least a relay can do. The socket handshake
// of relay.mjs and two HTTP calls:
//   POST /send       {from, to, id, content}  one SQLite insert (better-sqlite3, WAL), then the
//                    stored message is pushed to the receiver's sockets as a `simple` frame
//   POST /signal     {from, to, id, iceCandidate}  a call's signal pushed to `to` as a `webrtc` frame, no database
//   POST /broadcast  {from, data}              the payload pushed as a `group` frame to every bound
//                    socket but the sender's, serialized and encoded once, no database
// No sessions, no rules, no conversation rows.
//
//   node bench/baseline-server.mjs <sqlite file>
import SQLite from 'better-sqlite3';
import { push, pushAll, serve } from './relay.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: baseline-server.mjs <sqlite file>');
  process.exit(2);
}
const db = new SQLite(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`create table if not exists messages (
  id integer primary key autoincrement, client_id text not null, from_user integer not null,
  to_id integer not null, content text not null, create_time integer not null)`);
const insert = db.prepare(
  'insert into messages (client_id, from_user, to_id, content, create_time) values (?, ?, ?, ?, ?)',
);

serve({
  '/send': (body) => {
    const now = Date.now();
    const { lastInsertRowid } = insert.run(body.id, body.from, body.to, body.content, now);
    const message = {
      id: body.id,
      msg_id: Number(lastInsertRowid),
      type: 'text',
      content: body.content,
      sendTime: now,
      toContactId: body.to,
      fromUser: { id: body.from },
    };
    push(body.to, JSON.stringify({ type: 'simple', data: message, time: Math.floor(now / 1000) }));
    return message;
  },
  '/signal': (body) => {
    const now = Date.now();
    const data = {
      id: body.id,
      type: 'webrtc',
      fromUser: { id: body.from },
      extends: { event: 'iceCandidate', iceCandidate: body.iceCandidate },
    };
    push(body.to, JSON.stringify({ type: 'webrtc', data, time: Math.floor(now / 1000) }));
    return data;
  },
  '/broadcast': (body) => {
    pushAll(
      Buffer.from(JSON.stringify({ type: 'group', data: body.data, time: Math.floor(Date.now() / 1000) })),
      body.from,
    );
    return null;
  },
});
