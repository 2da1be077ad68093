// What the reference servers of the benchmarks share: a `ws` server with Sparrow's socket handshake
// (init → bindUid → pong, ping → pong), JSON POST routes over node:http, and pushes to a user's
// sockets. No sessions on the socket, no rules. Prints `listening <port>` when ready.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { WebSocketServer } from 'ws';

/** user id → open sockets */
const byUser = new Map();

/** A request's or an answer's body, parsed as JSON. */
export function readJson(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    stream.on('error', reject);
  });
}

/** Writes a text frame (a string) to every open socket of a user. */
export function push(userId, text) {
  for (const ws of byUser.get(userId) ?? []) if (ws.readyState === ws.OPEN) ws.send(text);
}

/** Writes a text frame (UTF-8 bytes, encoded once) to every open socket but those of `exceptUserId`. */
export function pushAll(bytes, exceptUserId) {
  for (const [userId, set] of byUser) {
    if (userId === exceptUserId) continue;
    for (const ws of set) if (ws.readyState === ws.OPEN) ws.send(bytes, { binary: false });
  }
}

/**
 * Serves `routes` (url → handler(body, req) answering the `data` of the envelope, synchronously)
 * and the socket handshake. A handler that throws answers 400.
 */
export function serve(routes) {
  const server = http.createServer(async (req, res) => {
    const route = routes[req.url];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    try {
      const data = route(await readJson(req), req);
      const out = JSON.stringify({ code: 0, msg: '', data });
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
}
