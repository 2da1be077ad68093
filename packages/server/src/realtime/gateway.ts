import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ClientFrameSchema,
  SOCKET_BIND_TIMEOUT_MS,
  SOCKET_IDLE_TIMEOUT_MS,
  SOCKET_PATH,
  SocketCloseCodes,
  TYPING_FRAMES_PER_INTERVAL,
  TYPING_MIN_GAP_MS,
  TYPING_RESEND_MS,
  type ClientFrame,
} from '@sparrow/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Connection } from './hub';
import type { Realtime, SocketSession } from './realtime';

export interface GatewayOptions {
  realtime: Realtime;
  /** Resolves a `bearer …` token to its session, or null. */
  authenticate: (token: string) => Promise<SocketSession | null>;
  /** Whether a bound socket's session still holds (not revoked elsewhere, user not disabled). */
  sessionAlive: (sessionId: number) => Promise<boolean>;
  /** Relays a bound Sparrow socket's `typing` frame (对方正在输入…) from its user, or drops it. */
  typing?: (userId: number, frame: Extract<ClientFrame, { type: 'typing' }>) => Promise<unknown>;
  bindTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** Invalid or unexpected frames a socket may send before it is closed as a flood. */
const MAX_BAD_FRAMES = 20;
/** Frames per 10 s before a socket is closed as a flood. */
const MAX_FRAMES_PER_10S = 200;
/** Chats a socket's typing limit remembers; past it, it forgets them all (the frame cap still holds). */
const TYPING_CHATS_KEPT = 16;

/** The `/wss` socket lifecycle of docs/protocol.md §4: init, bindUid, heartbeat, time-outs, flood control. */
export function registerGateway(app: FastifyInstance, opts: GatewayOptions): void {
  const bindTimeoutMs = opts.bindTimeoutMs ?? SOCKET_BIND_TIMEOUT_MS;
  const idleTimeoutMs = opts.idleTimeoutMs ?? SOCKET_IDLE_TIMEOUT_MS;
  const { realtime } = opts;

  // The HTTP answer @fastify/websocket makes to route an upgrade through Fastify, by its request.
  const answers = new WeakMap<IncomingMessage, ServerResponse>();
  const onRequest = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    answers.set(req.raw, reply.raw);
    done();
  };

  // Every socket's time-outs in one sweep rather than two timers (and their closures) a socket:
  // a socket is closed at most a tenth of the shorter time-out late (3 s in production).
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const conn of realtime.hub.connections()) {
        const { ws } = conn;
        if (ws.readyState !== ws.OPEN) continue;
        if (conn.userId === null && now - conn.openedAt >= bindTimeoutMs) ws.close(SocketCloseCodes.BindTimeout);
        else if (now - conn.seenAt >= idleTimeoutMs) ws.close(SocketCloseCodes.Idle);
      }
    },
    Math.min(bindTimeoutMs, idleTimeoutMs) / 10,
  ).unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(sweep);
    done();
  });

  app.get(SOCKET_PATH, { websocket: true, onRequest }, (ws, req) => {
    // That answer stays on the connection for as long as it lives, holding the upgrade request, its
    // headers, Fastify's request, reply and logger: about 3 KB a socket that nothing reads again.
    // Once `ws` has taken the connection over, it is let go (and with it the log line and the
    // metrics' timing of the upgrade "request" when the socket closes, which timed the socket's life).
    const answer = answers.get(req.raw);
    if (answer?.socket === req.socket) answer.detachSocket(req.socket);
    const log = req.log;
    const openedAt = Date.now();
    const conn: Connection = {
      clientId: randomUUID(),
      ws,
      socket: req.socket,
      userId: null,
      sessionId: null,
      isMobile: false,
      flushed: 0,
      openedAt,
      seenAt: openedAt,
    };
    realtime.hub.add(conn);
    // The plugin's own listener logs every socket error at error level with its stack and
    // terminates the socket; most are the client's doing, so the gateway classifies them itself.
    ws.removeAllListeners('error');
    ws.on('error', (err: Error & { code?: string }) => {
      const who = { userId: conn.userId, clientId: conn.clientId };
      if (err.code?.startsWith('WS_ERR_')) {
        // A frame over maxPayload (1009), bad UTF-8, a bad opcode: `ws` is already closing the
        // socket with the matching code. A client's fault is worth a warning, not a stack.
        log.warn({ ...who, code: err.code }, `socket closed: ${err.message}`);
        return;
      }
      log.error({ ...who, err }, 'socket error');
      ws.terminate();
    });
    let badFrames = 0;
    let frames = 0;
    let windowStart = openedAt;

    const reply = (frame: object) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const bad = () => {
      badFrames += 1;
      if (badFrames > MAX_BAD_FRAMES) ws.close(SocketCloseCodes.PolicyViolation);
    };

    // 对方正在输入…: at most TYPING_FRAMES_PER_INTERVAL frames per TYPING_RESEND_MS, a start to a chat
    // not sooner than TYPING_MIN_GAP_MS after the last one there (unless a stop came between), a stop
    // only after a start; relayed one after another, so that a stop never overtakes its start.
    let typingRelay: Promise<unknown> = Promise.resolve();
    const typingStarts = new Map<number | string, number>();
    let typingWindow = 0;
    let typingFrames = 0;
    const typing = (frame: Extract<ClientFrame, { type: 'typing' }>, now: number) => {
      const userId = conn.userId;
      // Only Sparrow's own client sends it; a Raingad socket or an unbound one sending it sends nonsense.
      if (userId === null || conn.boundOverHttp === true) return bad();
      if (!opts.typing) return;
      if (now - typingWindow >= TYPING_RESEND_MS) {
        typingWindow = now;
        typingFrames = 0;
      }
      typingFrames += 1;
      if (typingFrames > TYPING_FRAMES_PER_INTERVAL) return;
      const last = typingStarts.get(frame.to);
      if (frame.state === 1) {
        if (last !== undefined && now - last < TYPING_MIN_GAP_MS) return;
        if (typingStarts.size >= TYPING_CHATS_KEPT) typingStarts.clear();
        typingStarts.set(frame.to, now);
      } else {
        if (last === undefined) return;
        typingStarts.delete(frame.to);
      }
      const relay = opts.typing;
      typingRelay = typingRelay
        .then(() => relay(userId, frame))
        .catch((err: unknown) => log.warn({ err, userId }, 'typing relay failed'));
    };

    ws.on('message', (raw, isBinary) => {
      const now = Date.now();
      conn.seenAt = now;
      if (now - windowStart > 10_000) {
        windowStart = now;
        frames = 0;
      }
      frames += 1;
      if (frames > MAX_FRAMES_PER_10S) {
        ws.close(SocketCloseCodes.PolicyViolation);
        return;
      }
      if (isBinary) return bad();
      let json: unknown;
      try {
        json = JSON.parse(String(raw));
      } catch {
        return bad();
      }
      const parsed = ClientFrameSchema.safeParse(json);
      if (!parsed.success) return bad();
      const frame = parsed.data;
      switch (frame.type) {
        case 'ping':
          // Answered once the typing frames before it are relayed: a pong says they were handled.
          void typingRelay.then(() =>
            reply({
              type: 'pong',
              multiport: conn.userId !== null && realtime.hub.userConnections(conn.userId).length > 1,
            }),
          );
          if (conn.sessionId !== null) {
            void opts.sessionAlive(conn.sessionId).then(
              (alive) => alive || ws.close(SocketCloseCodes.SessionEnded),
              (err: unknown) => log.warn({ err }, 'session check failed'),
            );
          }
          return;
        case 'pong':
          return;
        case 'close':
          ws.close(1000);
          return;
        case 'typing':
          return typing(frame, now);
        case 'bindUid':
          void opts
            .authenticate(frame.token)
            .then(async (session) => {
              if (!session || session.userId !== frame.user_id) {
                ws.close(SocketCloseCodes.Unauthorized);
                return;
              }
              if (ws.readyState !== ws.OPEN) return;
              const { multiport } = await realtime.bind(conn, session);
              reply({ type: 'pong', multiport });
            })
            .catch((err: unknown) => {
              log.error({ err }, 'socket bind failed');
              ws.close(1011);
            });
          return;
      }
    });

    ws.on('close', () => {
      void realtime.drop(conn).catch((err: unknown) => log.warn({ err }, 'socket drop failed'));
    });

    reply({ type: 'init', client_id: conn.clientId });
  });
}
