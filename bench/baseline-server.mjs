// The baseline the benchmarks compare Sparrow with: the least a relay can do. A `ws` server with the
// same socket handshake (init → bindUid → pong, ping → pong) and two HTTP calls:
//   POST /send       {from, to, id, content}  one SQLite insert (better-sqlite3, WAL), then the
//                    stored message is pushed to the receiver's sockets as a `simple` frame
//   POST /broadcast  {from, data}              the payload pushed as a `group` frame to every bound
//                    socket but the sender's, serialized and encoded once, no database
// No sessions, no rules, no conversation rows. Prints `listening <port>` when ready.
//
//   node bench/baseline-server.mjs <sqlite file>
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { WebSocketServer } from 'ws';

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

/** user id → open sockets */
const byUser = new Map();

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

function push(userId, text) {
  for (const ws of byUser.get(userId) ?? []) if (ws.readyState === ws.OPEN) ws.send(text);
}

const server = http.createServer(async (req, res) => {
  try {
    const body = await readBody(req);
    let reply = null;
    if (req.url === '/send') {
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
      reply = message;
    } else if (req.url === '/broadcast') {
      const bytes = Buffer.from(
        JSON.stringify({ type: 'group', data: body.data, time: Math.floor(Date.now() / 1000) }),
      );
      for (const [userId, set] of byUser) {
        if (userId === body.from) continue;
        for (const ws of set) if (ws.readyState === ws.OPEN) ws.send(bytes, { binary: false });
      }
    } else {
      res.writeHead(404).end();
      return;
    }
    const out = JSON.stringify({ code: 0, msg: '', data: reply });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
  } catch {
    res.writeHead(400).end();
  }
});

const wss = new WebSocketServer({ server, path: '/wss' });
wss.on('connection', (ws) => {
  let userId = null;
  ws.on('message', (raw) => {
    let frame;
    try {
      frame = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (frame.type === 'bindUid') {
      userId = Number(frame.user_id);
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(ws);
      ws.send(JSON.stringify({ type: 'pong', multiport: set.size > 1 }));
    } else if (frame.type === 'ping') ws.send('{"type":"pong"}');
  });
  ws.on('close', () => {
    const set = byUser.get(userId);
    set?.delete(ws);
    if (set?.size === 0) byUser.delete(userId);
  });
  ws.send(JSON.stringify({ type: 'init', client_id: randomUUID() }));
});

server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
