import type { Redis } from 'ioredis';
import { loadRedis } from '../lib/lazy';
import type { Bus, BusMessage } from './bus';
import { callKey, type CallRecord, type CallState, type CallStore } from './call-store';
import type { Added, Presence } from './presence';
import type { RateLimiter } from '../lib/rate-limit';

/**
 * The bus across nodes: one Redis channel per user, subscribed by the nodes holding that user's
 * sockets, and one channel for everyone. A push for a few users is published once per user (each
 * copy reaches only the nodes holding that user, and a node holding several of them delivers each
 * exactly once); a push for more than WIDE_PUSH users (a group) is published once on the channel for
 * everyone with its whole list, and each node delivers it to the sockets of the list it holds:
 * one publish and one parse per node instead of one of each per member.
 */
const WIDE_PUSH = 16;

/** A change of subscriptions waiting for the end of the event loop's turn, with those waiting on it. */
interface SubscriptionChange {
  op: 'subscribe' | 'unsubscribe';
  channels: string[];
  waiting: Array<{ resolve: () => void; reject: (err: Error) => void }>;
}

/**
 * Options of the connections that send commands: those given in one turn of the event loop go out
 * in one write (a storm of binds would otherwise cost a write and a wake-up of Redis each).
 */
const PIPELINED = { maxRetriesPerRequest: 2, enableAutoPipelining: true } as const;

export class RedisBus implements Bus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private handler: (message: BusMessage) => void = () => undefined;
  private recovered: () => void = () => undefined;
  private readonly all: string;
  /** The subscription was lost: pushes from other nodes may have gone by meanwhile. */
  private lost = false;
  /** Subscriptions asked for in this turn of the event loop, in order. */
  private changes: SubscriptionChange[] = [];

  /**
   * `prefix` keeps deployments (and test runs) that share one Redis apart. While Redis is out of
   * reach, a publish is dropped and told to `onError` rather than failing the call that pushed:
   * what it carried is stored, and once Redis answers again `onRecovered` has the sockets sync.
   */
  constructor(
    url: string,
    private readonly prefix: string,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {
    this.all = `${prefix}all`;
    this.pub = new (loadRedis().Redis)(url, PIPELINED);
    this.sub = new (loadRedis().Redis)(url, { maxRetriesPerRequest: 2 });
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('close', () => {
      this.lost = true;
    });
    this.sub.on('ready', () => {
      if (!this.lost) return;
      this.lost = false;
      this.recovered();
    });
    this.sub.on('message', (_channel: string, text: string) => {
      try {
        this.handler(JSON.parse(text) as BusMessage);
      } catch {
        /* a malformed bus message concerns no socket */
      }
    });
  }

  private channel(userId: number): string {
    return `${this.prefix}u:${userId}`;
  }

  async ready(): Promise<void> {
    await Promise.all([this.pub.ping(), this.sub.subscribe(this.all)]);
  }

  /** Called when the subscription comes back after Redis was out of reach. */
  onRecovered(handler: () => void): void {
    this.recovered = handler;
  }

  async publish(message: BusMessage): Promise<void> {
    try {
      await this.send(message);
    } catch (err) {
      this.onError(err as Error);
    }
  }

  private async send(message: BusMessage): Promise<void> {
    if (message.kind === 'broadcast') {
      await this.pub.publish(this.all, JSON.stringify(message));
      return;
    }
    if (message.kind === 'kick') {
      await this.pub.publish(this.channel(message.userId), JSON.stringify(message));
      return;
    }
    if (message.userIds.length > WIDE_PUSH) {
      await this.pub.publish(this.all, JSON.stringify(message));
      return;
    }
    const frame = JSON.stringify(message.frame);
    const except =
      message.exceptClientId === undefined ? '' : `,"exceptClientId":${JSON.stringify(message.exceptClientId)}`;
    const at = message.at === undefined ? '' : `,"at":${message.at}`;
    const extras = message.extras === undefined ? '' : `,"extras":${JSON.stringify(message.extras)}`;
    // Through the connection's own pipeline, in order with every other publish of this node.
    await Promise.all(
      message.userIds.map((id) =>
        this.pub.publish(this.channel(id), `{"kind":"push","userIds":[${id}]${except}${at}${extras},"frame":${frame}}`),
      ),
    );
  }

  onMessage(handler: (message: BusMessage) => void): void {
    this.handler = handler;
  }

  watch(userId: number): Promise<void> {
    return this.change('subscribe', this.channel(userId));
  }

  unwatch(userId: number): Promise<void> {
    return this.change('unsubscribe', this.channel(userId));
  }

  /**
   * Subscribes or unsubscribes a channel along with the others asked for in this turn of the
   * event loop: a run of the same kind is one command, and the runs keep their order.
   */
  private change(op: SubscriptionChange['op'], channel: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const last = this.changes.at(-1);
      if (last?.op === op) {
        last.channels.push(channel);
        last.waiting.push({ resolve, reject });
        return;
      }
      if (this.changes.length === 0) setImmediate(() => this.sendChanges());
      this.changes.push({ op, channels: [channel], waiting: [{ resolve, reject }] });
    });
  }

  private sendChanges(): void {
    const changes = this.changes;
    this.changes = [];
    for (const { op, channels, waiting } of changes) {
      this.sub[op](...channels).then(
        () => waiting.forEach((w) => w.resolve()),
        (err: Error) => waiting.forEach((w) => w.reject(err)),
      );
    }
  }

  async close(): Promise<void> {
    this.sub.disconnect();
    this.pub.disconnect();
  }
}

/** Seconds a socket's presence entry lives without a refresh (a crashed node's sockets age out). */
const PRESENCE_TTL_MS = 90_000;
const PRESENCE_REFRESH_MS = 30_000;

/**
 * Presence across nodes: a sorted set per user of live client ids scored by their last refresh;
 * each node refreshes its own sockets, so entries of a node that died expire on their own.
 */
export class RedisPresence implements Presence {
  private readonly redis: Redis;
  private readonly timer: NodeJS.Timeout;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly localSockets: () => Array<{ userId: number; clientId: string }>,
    private readonly now: () => number = Date.now,
    onError: (err: Error) => void = () => undefined,
  ) {
    this.redis = new (loadRedis().Redis)(url, PIPELINED);
    this.redis.on('error', onError);
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), PRESENCE_REFRESH_MS);
    this.timer.unref();
  }

  private key(userId: number) {
    return `${this.prefix}presence:${userId}`;
  }

  /** One round trip: stale entries go, then the count before and after this socket joins. */
  async add(userId: number, clientId: string): Promise<Added> {
    const key = this.key(userId);
    const now = this.now();
    const res = await this.redis
      .multi()
      .zremrangebyscore(key, '-inf', now - PRESENCE_TTL_MS)
      .zcard(key)
      .zadd(key, now, clientId)
      .zcard(key)
      .pexpire(key, PRESENCE_TTL_MS * 2)
      .exec();
    const before = Number(res?.[1]?.[1] ?? 0);
    return { cameOnline: before === 0, sockets: Number(res?.[3]?.[1] ?? 1) };
  }

  /** One round trip: the socket goes, and its user's live sockets are counted. */
  async remove(userId: number, clientId: string): Promise<boolean> {
    const key = this.key(userId);
    const res = await this.redis
      .multi()
      .zrem(key, clientId)
      .zcount(key, this.now() - PRESENCE_TTL_MS, '+inf')
      .exec();
    return Number(res?.[0]?.[1] ?? 0) === 1 && Number(res?.[1]?.[1] ?? 1) === 0;
  }

  async online(userIds: number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const pipeline = this.redis.pipeline();
    const since = this.now() - PRESENCE_TTL_MS;
    for (const id of userIds) pipeline.zcount(this.key(id), since, '+inf');
    const results = (await pipeline.exec()) ?? [];
    return new Set(userIds.filter((_, i) => Number(results[i]?.[1] ?? 0) > 0));
  }

  private async refresh(): Promise<void> {
    const sockets = this.localSockets();
    if (sockets.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const s of sockets)
      pipeline.zadd(this.key(s.userId), this.now(), s.clientId).pexpire(this.key(s.userId), PRESENCE_TTL_MS * 2);
    await pipeline.exec();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.redis.disconnect();
  }
}

const TAKE = `
local tokens = tonumber(redis.call('HGET', KEYS[1], 't'))
local at = tonumber(redis.call('HGET', KEYS[1], 'a'))
local cap, rate, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if tokens == nil then tokens = cap; at = now end
tokens = math.min(cap, tokens + (now - at) / 1000 * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 't', tokens, 'a', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(cap / rate * 1000) + 1000)
return {ok, math.ceil((1 - tokens) / rate)}
`;

/**
 * Rate limits that hold across nodes. Without a connection a call fails at once (no offline
 * queue), so that a FallbackRateLimiter can count on this node instead.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
    onError: (err: Error) => void = () => undefined,
  ) {
    this.redis = new (loadRedis().Redis)(url, { ...PIPELINED, enableOfflineQueue: false });
    this.redis.on('error', onError);
  }

  async hit(key: string, windowS: number) {
    const k = `${this.prefix}rl:${key}`;
    const res = await this.redis.multi().incr(k).pttl(k).exec();
    const count = Number(res?.[0]?.[1] ?? 0);
    let ttl = Number(res?.[1]?.[1] ?? -1);
    if (ttl < 0) {
      await this.redis.pexpire(k, windowS * 1000);
      ttl = windowS * 1000;
    }
    return { count, resetS: Math.ceil(ttl / 1000) };
  }

  async peek(key: string) {
    const k = `${this.prefix}rl:${key}`;
    const [count, ttl] = await Promise.all([this.redis.get(k), this.redis.pttl(k)]);
    return { count: Number(count ?? 0), resetS: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
  }

  async reset(key: string) {
    await this.redis.del(`${this.prefix}rl:${key}`);
  }

  async take(key: string, capacity: number, perSecond: number) {
    const [ok, retry] = (await this.redis.eval(
      TAKE,
      1,
      `${this.prefix}tb:${key}`,
      capacity,
      perSecond,
      this.now(),
    )) as [number, number];
    return { ok: ok === 1, retryS: Math.max(1, retry) };
  }

  async close() {
    this.redis.disconnect();
  }
}

/** A lock's value: the call it is for and until when it holds. */
const LOCK_LIVE = `
local function live(v, key, now)
  if not v then return false end
  local sep = string.find(v, '|', 1, true)
  return string.sub(v, 1, sep - 1) ~= key and tonumber(string.sub(v, sep + 1)) > now
end
`;

const BEGIN_CALL = `${LOCK_LIVE}
local now = tonumber(ARGV[3])
if live(redis.call('GET', KEYS[1]), ARGV[1], now) or live(redis.call('GET', KEYS[2]), ARGV[1], now) then return 0 end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'PX', ARGV[5])
redis.call('SET', KEYS[2], ARGV[1] .. '|' .. ARGV[2], 'PX', ARGV[5])
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
return 1
`;

const UPDATE_CALL = `
local current = redis.call('GET', KEYS[3])
if not current or cjson.decode(current).state ~= ARGV[6] then return 0 end
local mine = ARGV[1] .. '|'
for i = 1, 2 do
  local v = redis.call('GET', KEYS[i])
  if v and string.sub(v, 1, #mine) == mine then redis.call('SET', KEYS[i], mine .. ARGV[2], 'PX', ARGV[5]) end
end
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
return 1
`;

const TAKE_CALL = `
local current = redis.call('GET', KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[1])
if not current then return false end
redis.call('DEL', KEYS[3])
local mine = ARGV[1] .. '|'
for i = 1, 2 do
  local v = redis.call('GET', KEYS[i])
  if v and string.sub(v, 1, #mine) == mine then redis.call('DEL', KEYS[i]) end
end
return current
`;

/** Redis keeps a call's keys this long past its expiry, for the sweep to find and end it. */
const CALL_KEEP_MS = 10 * 60_000;

/**
 * Calls and call locks shared by every node, so that a callee on another node is busy-checked
 * and a call ends once whichever node notices first. Expiry is judged against the caller's
 * clock (`now`); Redis's own expiry only collects what nobody ended.
 */
export class RedisCallStore implements CallStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
    onError: (err: Error) => void = () => undefined,
  ) {
    this.redis = new (loadRedis().Redis)(url, { maxRetriesPerRequest: 2 });
    this.redis.on('error', onError);
  }

  private keys(call: Pick<CallRecord, 'callerId' | 'calleeId' | 'id'>): string[] {
    return [
      `${this.prefix}call-lock:${call.callerId}`,
      `${this.prefix}call-lock:${call.calleeId}`,
      `${this.prefix}call:${callKey(call.callerId, call.id)}`,
      `${this.prefix}calls`,
    ];
  }

  private keep(call: CallRecord): number {
    return Math.max(1, call.expiresAt - Date.now()) + CALL_KEEP_MS;
  }

  async begin(call: CallRecord, now: number): Promise<'ok' | 'busy'> {
    const key = callKey(call.callerId, call.id);
    const ok = await this.redis.eval(
      BEGIN_CALL,
      4,
      ...this.keys(call),
      key,
      call.expiresAt,
      now,
      JSON.stringify(call),
      this.keep(call),
    );
    return ok === 1 ? 'ok' : 'busy';
  }

  async get(callerId: number, id: string): Promise<CallRecord | undefined> {
    const raw = await this.redis.get(`${this.prefix}call:${callKey(callerId, id)}`);
    return raw ? (JSON.parse(raw) as CallRecord) : undefined;
  }

  async update(call: CallRecord, from: CallState): Promise<boolean> {
    const ok = await this.redis.eval(
      UPDATE_CALL,
      4,
      ...this.keys(call),
      callKey(call.callerId, call.id),
      call.expiresAt,
      0,
      JSON.stringify(call),
      this.keep(call),
      from,
    );
    return ok === 1;
  }

  async take(call: Pick<CallRecord, 'callerId' | 'calleeId' | 'id'>): Promise<CallRecord | undefined> {
    const raw = (await this.redis.eval(TAKE_CALL, 4, ...this.keys(call), callKey(call.callerId, call.id))) as
      string | null;
    return raw ? (JSON.parse(raw) as CallRecord) : undefined;
  }

  async live(): Promise<CallRecord[]> {
    const keys = await this.redis.zrange(`${this.prefix}calls`, 0, -1);
    if (keys.length === 0) return [];
    const raws = await this.redis.mget(keys.map((k) => `${this.prefix}call:${k}`));
    return raws.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as CallRecord);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
