import { SocketCloseCodes, type PushEvent, type PushFrame } from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus, BusMessage } from './bus';
import { type Connection, Hub } from './hub';
import type { Presence } from './presence';
import { kindOf, present, type PushExtras } from './present';

/** A signed-in socket's session, as the auth module resolves it. */
export interface SocketSession {
  sessionId: number;
  userId: number;
  isMobile: boolean;
}

export interface RealtimeOptions {
  bus: Bus;
  presence: Presence;
  log: FastifyBaseLogger;
  /** Whether presence is shown (chatInfo.online). */
  presenceVisible: () => boolean;
  /** Told of each push handed to this node's sockets, `delayMs` after it was published. */
  onDelivered?: (delayMs: number) => void;
  /** Sockets one user may have bound on this node; past it the oldest is closed (SOCKETS_PER_USER). */
  socketsPerUser: number;
}

const nowS = () => Math.floor(Date.now() / 1000);

/**
 * Pushes to users wherever their sockets are. Modules call `publish` after their transaction
 * commits; a push is a hint, and `sync` repairs what a dropped socket missed.
 */
export class Realtime {
  readonly hub: Hub;
  private audience: (userId: number) => Promise<number[] | 'everyone'> = async () => [];
  private readonly wentOffline: Array<(userId: number) => Promise<void>> = [];
  private readonly cameOnline: Array<(userId: number) => Promise<void>> = [];
  /** Each connection's drop, so that closing it twice (shutdown, then its close event) forgets it once. */
  private readonly drops = new WeakMap<Connection, Promise<void>>();
  /** Drops still on their way (presence, then whoever hears of a user going offline). */
  private readonly dropping = new Set<Promise<void>>();

  constructor(private readonly opts: RealtimeOptions) {
    this.hub = new Hub(opts.log);
    opts.bus.onMessage((m) => this.receive(m));
  }

  /** Who hears about a user's presence (those who may see it); set by the contacts module. */
  setAudience(fn: (userId: number) => Promise<number[] | 'everyone'>): void {
    this.audience = fn;
  }

  /**
   * Pushes an event to every socket of the given users, except one client if given; `extras` are
   * what a kind of socket reads of it beyond the frame (`present.ts`).
   */
  async publish(userIds: number[], event: PushEvent, exceptClientId?: string, extras?: PushExtras): Promise<void> {
    if (userIds.length === 0) return;
    const frame = { ...event, time: nowS() } as PushFrame;
    const at = Date.now();
    await this.opts.bus.publish({
      kind: 'push',
      userIds: [...new Set(userIds)],
      frame,
      exceptClientId,
      at,
      ...(extras && { extras }),
    });
  }

  /** Pushes an event to every bound socket on every node. */
  async broadcast(event: PushEvent, exceptUserId?: number): Promise<void> {
    await this.opts.bus.publish({ kind: 'broadcast', frame: { ...event, time: nowS() } as PushFrame, exceptUserId });
  }

  /**
   * Closes the sockets of some sessions of a user, on every node, after sending `event` (an
   * `offline` event gets each socket's own client_id).
   */
  async kick(userId: number, sessionIds: number[], closeCode: number, event?: PushEvent): Promise<void> {
    if (sessionIds.length === 0) return;
    const frame = event ? ({ ...event, time: nowS() } as PushFrame) : undefined;
    await this.opts.bus.publish({ kind: 'kick', userId, sessionIds, frame, closeCode });
  }

  /** True when `clientId` is a live socket on this node. */
  isLive(clientId: string): boolean {
    return this.hub.get(clientId) !== undefined;
  }

  /** Joins a live socket to a session's user; answers whether the user has other sockets. */
  async bind(conn: Connection, session: SocketSession): Promise<{ multiport: boolean }> {
    const firstHere = this.hub.bind(conn, session.userId, session.sessionId, session.isMobile);
    this.keepWithinCap(session.userId);
    if (firstHere) await this.opts.bus.watch(session.userId);
    const { cameOnline, sockets } = await this.opts.presence.add(session.userId, conn.clientId);
    if (cameOnline) {
      await this.announce(session.userId, 1);
      await this.tell(this.cameOnline, session.userId, 'coming online not recorded');
    }
    return { multiport: sockets > 1 };
  }

  /**
   * Keeps a user's bound sockets on this node within the cap by closing the oldest (those already
   * closing come first, so they count towards it until they are gone). The newest is the one a
   * person has just opened and is looking at; of more than fifty, the oldest is almost surely a
   * socket its device lost and that has not timed out yet, or a tab long forgotten. Refusing the
   * newest instead would keep the person out of their own new device until those time out.
   */
  private keepWithinCap(userId: number): void {
    const bound = this.hub.userConnections(userId);
    const over = bound.length - this.opts.socketsPerUser;
    for (const old of bound.slice(0, Math.max(0, over))) old.ws.close(SocketCloseCodes.TooManySockets);
  }

  /** Tells `listener` of each user whose last socket anywhere went (their 最近在线). */
  onWentOffline(listener: (userId: number) => Promise<void>): void {
    this.wentOffline.push(listener);
  }

  /** Tells `listener` of each user whose first socket anywhere came. */
  onCameOnline(listener: (userId: number) => Promise<void>): void {
    this.cameOnline.push(listener);
  }

  private async tell(listeners: Array<(userId: number) => Promise<void>>, userId: number, failed: string) {
    for (const listener of listeners) {
      try {
        await listener(userId);
      } catch (err) {
        this.opts.log.warn({ err, userId }, failed);
      }
    }
  }

  /**
   * Forgets a closed socket; announces the user offline when it was their last. A socket dropped
   * again (at shutdown, then by its close event) is forgotten once: the same drop is answered.
   */
  drop(conn: Connection): Promise<void> {
    const known = this.drops.get(conn);
    if (known) return known;
    const done = this.forget(conn).finally(() => this.dropping.delete(done));
    this.drops.set(conn, done);
    this.dropping.add(done);
    return done;
  }

  /**
   * Forgets every socket of this node, as the server shuts down, and waits for the drops under way:
   * those whose last socket was here go offline (and their last-seen time is written) before the
   * database closes.
   */
  async dropAll(): Promise<void> {
    for (const conn of this.hub.all()) void this.drop(conn).catch(() => undefined);
    await Promise.allSettled([...this.dropping]);
  }

  private async forget(conn: Connection): Promise<void> {
    const userId = conn.userId;
    const lastHere = this.hub.remove(conn);
    if (userId === null) return;
    // Presence first: a channel that fails to unsubscribe (the bus closing) must not leave the socket counted.
    const wentOffline = await this.opts.presence.remove(userId, conn.clientId);
    // A socket of theirs bound here meanwhile watches the user's channel again: it stays.
    if (lastHere && this.hub.userConnections(userId).length === 0)
      await this.opts.bus
        .unwatch(userId)
        .catch((err: unknown) => this.opts.log.warn({ err, userId }, 'unwatch failed'));
    if (!wentOffline) return;
    // Back already (bound anywhere meanwhile): their coming online was announced and stays the last word.
    if ((await this.opts.presence.online([userId])).has(userId)) return;
    await this.announce(userId, 0);
    await this.tell(this.wentOffline, userId, 'going offline not recorded');
  }

  /** Which of these users have a live socket anywhere. */
  async online(userIds: number[]): Promise<Set<number>> {
    if (!this.opts.presenceVisible()) return new Set();
    return this.opts.presence.online(userIds);
  }

  /** Which of these users have a live socket anywhere, whether or not presence is shown to others. */
  reachable(userIds: number[]): Promise<Set<number>> {
    return this.opts.presence.online(userIds);
  }

  private async announce(userId: number, isOnline: 0 | 1): Promise<void> {
    if (!this.opts.presenceVisible()) return;
    try {
      const audience = await this.audience(userId);
      const event = { type: 'isOnline', data: { id: userId, is_online: isOnline } } as const;
      // Everyone: one message for every node rather than one per user, and no list of all users.
      if (audience === 'everyone') await this.broadcast(event, userId);
      else await this.publish(audience, event);
    } catch (err) {
      this.opts.log.warn({ err, userId }, 'presence announcement failed');
    }
  }

  private receive(message: BusMessage): void {
    switch (message.kind) {
      case 'push':
        this.hub.deliver(message.userIds, message.frame, message.exceptClientId, message.extras);
        if (message.at !== undefined) this.opts.onDelivered?.(Date.now() - message.at);
        return;
      case 'broadcast':
        this.hub.broadcast(message.frame, message.exceptUserId);
        return;
      case 'kick': {
        const { frame } = message;
        for (const conn of this.hub.userConnections(message.userId)) {
          if (conn.sessionId === null || !message.sessionIds.includes(conn.sessionId)) continue;
          // What was given for everyone before reaches the socket before it closes.
          this.hub.flushTo(conn);
          // Socket by socket: `offline` names the socket it ends, and only this node knows its id.
          const shown = frame && present(kindOf(conn), frame, undefined, conn.clientId);
          if (shown) this.hub.send(conn, JSON.stringify(shown));
          conn.ws.close(message.closeCode);
        }
        return;
      }
    }
  }

  /** Closes every socket with 1012 so that clients reconnect elsewhere, after the frames still waiting. */
  closeAll(): void {
    this.hub.flushBroadcasts();
    for (const conn of this.hub.all()) conn.ws.close(SocketCloseCodes.Restart);
  }
}
