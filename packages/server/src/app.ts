import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { BODY_LIMIT_DEFAULT, Codes, translate, type PushFrame } from '@sparrow/protocol';
import type { ServerConfig } from './config';
import type { AppContext } from './context';
import { migrate, openDb, type OpenedDb } from './db';
import { isDiskFull } from './db/disk-full';
import { AppError } from './errors';
import { localeOf, sendError } from './http/envelope';
import { registerBodyParsers } from './http/body';
import { capConnections } from './http/connections';
import { readForwarded } from './http/forwarded';
import { registerRoutes } from './http/route';
import { registerSecurityHeaders } from './http/security';
import { atMostEvery } from './lib/at-most';
import { Limits } from './lib/limits';
import { fastifyCompilers } from './lib/lazy';
import { Mailer } from './lib/mailer';
import { FallbackRateLimiter, MemoryRateLimiter } from './lib/rate-limit';
import { authRoutes } from './modules/auth/routes';
import { callRoutes } from './modules/call/routes';
import { emojiRoutes } from './modules/emoji/routes';
import { momentRoutes } from './modules/moments/routes';
import { favoriteRoutes } from './modules/favorite/routes';
import { reportRoutes } from './modules/report/routes';
import { blockRoutes } from './modules/block/routes';
import { accountRoutes, registerExportDownload } from './modules/account/routes';
import { pushRoutes } from './modules/push/routes';
import { adminRoutes, adminSecurityRoutes } from './modules/admin';
import { deviceRoutes } from './modules/auth/device-routes';
import { ldapRoutes } from './modules/ldap';
import { twoStepRoutes } from './modules/auth/two-step-routes';
import { passkeyRoutes } from './modules/auth/passkey-routes';
import { accessTokenRoutes } from './modules/auth/access-token-routes';
import { needsTwoStepSetup } from './modules/auth/two-step-policy';
import { Metrics, Readiness, registerOpsRoutes } from './modules/ops';
import { friendRoutes } from './modules/friend/routes';
import { groupRoutes } from './modules/group/routes';
import { AnnouncementWatcher } from './modules/im/announcements';
import { imRoutes } from './modules/im/routes';
import { reactionRoutes } from './modules/im/reactions-routes';
import { pollRoutes } from './modules/im/polls-routes';
import { pinRoutes } from './modules/im/pin-routes';
import { chainRoutes } from './modules/im/chain-routes';
import { qrRoutes, registerScanPages } from './modules/qr/routes';
import { loggedUrl } from './http/logged-url';
import { registerSsoPages, ssoRoutes } from './modules/sso';
import { registerRobotWebhook, robotRoutes } from './modules/robot';
import { botRoutes } from './modules/bot';
import { SessionService } from './modules/auth/session';
import { ConfigService } from './modules/system/config-service';
import { Sealer } from './lib/sealed';
import { KeywordScreen, keywordRoutes } from './modules/keywords';
import { systemRoutes } from './modules/system/routes';
import { uploadRoutes } from './modules/upload/routes';
import { userRoutes } from './modules/user/routes';
import { LocalBus } from './realtime/bus';
import { registerGateway, type GatewayOptions } from './realtime/gateway';
import { LocalPresence } from './realtime/presence';
import { Access } from './modules/access';
import { MemoryCallStore } from './realtime/call-store';
import { RedisBus, RedisCallStore, RedisPresence, RedisRateLimiter } from './realtime/redis';
import { Realtime } from './realtime/realtime';
import { createRepos } from './repos';
import { createServices, type Services } from './services';
import { registerStorageRoutes } from './storage/routes';
import { createStorage } from './storage/create';

export interface BuildOptions {
  /** The clock, in ms; tests move it forward instead of sleeping. */
  now?: () => number;
  /** Socket time-outs, shortened by tests. */
  socket?: { bindTimeoutMs?: number; idleTimeoutMs?: number };
  logger?: boolean;
}

/** Builds the whole server without listening: tests call `app.inject()` or listen on port 0. */
export async function buildApp(
  env: ServerConfig,
  opts: BuildOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext; services: Services; readiness: Readiness }> {
  const app = createFastify(env, opts);
  const now = opts.now ?? Date.now;
  const metrics = new Metrics();
  const opened = await openDatabase(app, env, metrics);
  const repos = createRepos(opened.db, opened.dialect);
  const config = new ConfigService(repos.config);
  await config.load();
  config.startPolling(env.configPollMs);
  const keywords = new KeywordScreen(repos.keywords, repos.config);
  await keywords.load();
  keywords.startPolling(env.configPollMs);
  const carriers = await connectRealtime(app, env, config, metrics, now);
  const ctx = await buildContext(app, env, { opened, repos, config, keywords, metrics, now, ...carriers });
  broadcastConfigChanges(ctx);
  await registerPlugins(app, ctx);
  registerErrorHandlers(app, ctx);
  // Sockets are served only once listening, after the services below exist.
  registerSocketGateway(app, ctx, opts.socket, (userId, frame) => services.typing.relay(userId, frame));
  const services = createServices(
    ctx,
    env.redisUrl ? new RedisCallStore(env.redisUrl, env.redisPrefix, carriers.redisDown) : new MemoryCallStore(),
  );
  const announcements = await startServices(ctx, services);
  const readiness = new Readiness(ctx.repos.ops, ctx.env.redisUrl);
  await registerHandlers(app, ctx, services, readiness);
  await registerWebClient(app, env);
  closeOnShutdown(app, ctx, services, { announcements, opened, ...carriers });
  return { app, ctx, services, readiness };
}

/** The Fastify instance: its log (a scan path's token left out), routing, body limit and time-outs. */
function createFastify(env: ServerConfig, opts: BuildOptions): FastifyInstance {
  return Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: env.logLevel,
            serializers: {
              req: (req: FastifyRequest) => ({
                method: req.method,
                url: loggedUrl(req.url),
                host: req.host,
                remoteAddress: req.ip,
                remotePort: req.socket.remotePort,
              }),
            },
          },
    routerOptions: { caseSensitive: false, ignoreDuplicateSlashes: true },
    trustProxy: env.trustProxy,
    // Each route of the table sets its own (routes.ts `bodyLimit`); this holds for the rest.
    bodyLimit: BODY_LIMIT_DEFAULT,
    requestTimeout: env.resources.requestTimeoutMs,
    connectionTimeout: env.resources.idleTimeoutMs,
    keepAliveTimeout: env.resources.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(env.resources.headersTimeoutMs, env.resources.requestTimeoutMs || Infinity),
      // How often Node looks for requests past those time-outs (its default, 30 s, is longer than they are).
      connectionsCheckingInterval: 1_000,
    },
    genReqId: () => Math.random().toString(36).slice(2, 10),
    schemaController: { compilersFactory: fastifyCompilers },
  });
}

/** Opens the database and brings it to the newest migration; its errors are logged, its queries and pool counted. */
async function openDatabase(app: FastifyInstance, env: ServerConfig, metrics: Metrics): Promise<OpenedDb> {
  const opened = openDb({
    databaseUrl: env.databaseUrl,
    dataDir: env.dataDir,
    onIdleError: (err) => app.log.warn({ err }, 'idle database connection lost'),
    onCheckpointError: (err) => app.log.error({ err }, 'SQLite checkpoint thread failed; checkpointing in the server'),
    onQuery: (ms) => metrics.query(ms),
  });
  try {
    const { applied } = await migrate(opened, { log: (line) => app.log.info(line) });
    if (applied.length) app.log.info(`the database is upgraded to ${applied.at(-1)}`);
  } catch (err) {
    // The message names the failed migration and the copy taken before it (db/upgrade.ts).
    app.log.fatal(err instanceof Error ? err.message : String(err));
    await opened.close();
    throw err;
  }
  if (opened.pool) metrics.watchPool(opened.pool);
  return opened;
}

/**
 * The sockets' hub and what carries pushes and presence between nodes: Redis when REDIS_URL is set
 * (an outage said once a minute), else this process alone.
 */
async function connectRealtime(
  app: FastifyInstance,
  env: ServerConfig,
  config: ConfigService,
  metrics: Metrics,
  now: () => number,
) {
  let localSockets: () => Array<{ userId: number; clientId: string }> = () => [];
  const redis = env.redisUrl;
  // Redis out of reach: pushes wait for the sockets' sync and limits count per node; said once a minute.
  const redisDown = atMostEvery(60_000, now, (err: Error) =>
    app.log.warn({ error: err.message }, 'Redis is out of reach: pushes wait for sync, limits count per node'),
  );
  const bus = redis ? new RedisBus(redis, env.redisPrefix, redisDown) : new LocalBus();
  if (bus instanceof RedisBus) await bus.ready();
  const presence = redis
    ? new RedisPresence(redis, env.redisPrefix, () => localSockets(), now, redisDown)
    : new LocalPresence();
  const realtime = new Realtime({
    bus,
    presence,
    log: app.log,
    presenceVisible: () => config.get().chatInfo.online === 1,
    onDelivered: (delayMs) => metrics.pushDelivered(delayMs),
    socketsPerUser: env.resources.socketsPerUser,
  });
  metrics.watchSockets({
    open: () => realtime.hub.size,
    bound: () => realtime.hub.all().filter((c) => c.userId !== null).length,
  });
  localSockets = () =>
    realtime.hub.all().flatMap((c) => (c.userId === null ? [] : [{ userId: c.userId, clientId: c.clientId }]));
  // Pushes from other nodes may have been lost while Redis was away: every socket here reconnects and syncs.
  if (bus instanceof RedisBus) bus.onRecovered(() => realtime.closeAll());
  return { realtime, bus, presence, redisDown };
}

type Carriers = Awaited<ReturnType<typeof connectRealtime>>;

/** The context every module is built from, one per process: what is open so far, with rate limits, mail and storage. */
async function buildContext(
  app: FastifyInstance,
  env: ServerConfig,
  parts: Pick<AppContext, 'repos' | 'config' | 'keywords' | 'metrics' | 'now' | 'realtime'> &
    Pick<Carriers, 'redisDown'> & { opened: OpenedDb },
): Promise<AppContext> {
  const { opened, repos, config, keywords, metrics, now, realtime, redisDown } = parts;
  const redis = env.redisUrl;
  return {
    env,
    db: opened.db,
    dialect: opened.dialect,
    repos,
    access: new Access(repos),
    config,
    keywords,
    sessions: new SessionService(repos, now),
    realtime,
    limits: new Limits(
      redis
        ? new FallbackRateLimiter(
            new RedisRateLimiter(redis, env.redisPrefix, now, redisDown),
            new MemoryRateLimiter(now),
            redisDown,
          )
        : new MemoryRateLimiter(now),
      config,
    ),
    sealer: new Sealer(() => config.secret),
    mailer: new Mailer({
      smtpUrl: env.smtpUrl,
      outboxDir: path.join(env.dataDir, 'outbox'),
      from: `Sparrow <no-reply@${new URL(env.publicUrl).hostname}>`,
      log: app.log,
    }),
    metrics,
    storage: await createStorage(
      env,
      atMostEvery(60_000, now, (err: Error) => app.log.error({ err }, 'upload storage is full or unavailable')),
    ),
    log: app.log,
    now,
  };
}

/** A change of the configuration, made here or seen in the database, is pushed to every socket (`updateConfig`). */
function broadcastConfigChanges(ctx: AppContext): void {
  ctx.config.onChange((globalConfig) => {
    const frame: PushFrame = { type: 'updateConfig', data: globalConfig, time: Math.floor(ctx.now() / 1000) };
    ctx.realtime.hub.broadcast(frame);
  });
}

/** What requests and sockets pass through: connection caps, body parsers, `Forwarded`, security headers, websockets. */
async function registerPlugins(app: FastifyInstance, ctx: AppContext): Promise<void> {
  capConnections(app.server, ctx.env.resources.connectionsPerAddress, ctx.env.trustProxy);
  await registerBodyParsers(app);
  await app.register(multipart);
  readForwarded(app, ctx.env.trustProxy, ctx.now);
  await registerSecurityHeaders(app, () => ctx.config.get());
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // The plugin's own preClose runs first and closes sockets without a code; ours says 1012 so
    // that clients reconnect elsewhere.
    preClose(done) {
      ctx.realtime.closeAll();
      this.websocketServer.close();
      done();
    },
  });
}

/** Errors as the envelope in the caller's language: named ones, a full disk, a body too large or unread, no route. */
function registerErrorHandlers(app: FastifyInstance, ctx: AppContext): void {
  // A full disk lasts until an operator frees space: said once a minute, not on every refused write.
  const diskFull = atMostEvery(60_000, ctx.now, (err: unknown) =>
    app.log.error({ err }, 'the disk is full: writes fail'),
  );
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) {
      if (err.code === Codes.TooMany) ctx.metrics.refused(err.name);
      return sendError(req, reply, err);
    }
    if (isDiskFull(err)) {
      diskFull(err);
      return sendError(req, reply, new AppError('StorageUnavailable'));
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status === 413 && req.isMultipart())
      return sendError(req, reply, new AppError('FileTooLarge', { size: ctx.config.get().fileUpload.size }));
    if (status === 413) return sendError(req, reply, new AppError('BodyTooLarge', {}, { fields: ['body'] }));
    if (status >= 400 && status < 500) {
      return sendError(req, reply, new AppError('Validation', {}, { fields: ['body'] }));
    }
    req.log.error({ err }, 'unexpected error');
    return sendError(req, reply, new AppError('ServerError', { requestId: req.id }));
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ code: Codes.NotFound, msg: translate(localeOf(req), 'errors.NotFound'), data: null });
  });
}

/** The socket endpoint: a token binds a socket to its session, none while a password an admin set is unchanged. */
function registerSocketGateway(
  app: FastifyInstance,
  ctx: AppContext,
  socket: BuildOptions['socket'],
  typing: GatewayOptions['typing'],
): void {
  registerGateway(app, {
    realtime: ctx.realtime,
    authenticate: async (token) => {
      const s = await ctx.sessions.fromToken(token);
      // Until a password an admin set is changed, or a second factor the server requires is set up,
      // nothing reaches the session (as its HTTP calls).
      if (!s || s.user.must_change_password) return null;
      if (needsTwoStepSetup(s.user, ctx.config.get().account.twoStepRequired)) return null;
      return { sessionId: s.id, userId: s.userId, isMobile: s.isMobile };
    },
    sessionAlive: (id) => ctx.sessions.servesSocket(id, ctx.config.get().account.twoStepRequired),
    typing,
    ...socket,
  });
}

/** Starts the services' work in the background and the announcements watcher; wires what they tell each other. */
async function startServices(ctx: AppContext, services: Services): Promise<AnnouncementWatcher> {
  services.calls.start();
  services.pipeline.start();
  services.botDeliveries.start();
  services.search.start(ctx.env.searchIndexMs);
  services.exports.start(ctx.env.exportSweepMs);
  services.retention.start(ctx.env.retentionSweepMs);
  // Web Push's VAPID pair: made at the first start, read from the database at every later one.
  await services.push.keys();
  ctx.realtime.setAudience((userId) => services.friends.audience(userId));
  const announcements = new AnnouncementWatcher(ctx.repos.announcements, ctx.realtime);
  announcements.start(ctx.env.configPollMs);
  services.admin.site.onNoticePublished(() => announcements.check());
  return announcements;
}

/** Every module's handlers in the route table, then uploads, scan pages and the operators' routes. */
async function registerHandlers(
  app: FastifyInstance,
  ctx: AppContext,
  services: Services,
  readiness: Readiness,
): Promise<void> {
  registerRoutes(app, ctx, {
    ...friendRoutes(ctx, services.friends),
    ...imRoutes(ctx, services.messages, services.pipeline, services.contacts, services.search, services.forwards),
    ...pinRoutes(services.pins, services.pats),
    ...chainRoutes(services.chains),
    ...reactionRoutes(services.reactions, services.edits, services.receipts),
    ...pollRoutes(services.polls),
    ...groupRoutes(ctx, services.groups, services.groupAdmin, services.groupCodes),
    ...robotRoutes(ctx, services.robots),
    ...botRoutes(services.bots),
    ...authRoutes(ctx, services.auth),
    ...twoStepRoutes(ctx, services.auth, services.twoStep, services.passkeys),
    ...passkeyRoutes(ctx, services.passkeys, services.auth),
    ...accessTokenRoutes(services.accessTokens),
    ...userRoutes(ctx, services.users),
    ...systemRoutes(ctx),
    ...uploadRoutes(ctx, services),
    ...emojiRoutes(ctx, services.emoji),
    ...qrRoutes(ctx, services.qr, services.qrLogin),
    ...ssoRoutes(ctx, services.sso, services.auth),
    ...callRoutes(ctx, services.calls),
    ...momentRoutes(ctx, services.moments),
    ...favoriteRoutes(ctx, services.favorites),
    ...reportRoutes(services.reports, services.reportQueue),
    ...blockRoutes(services.blocks),
    ...accountRoutes(services.accounts, services.exports),
    ...adminRoutes(services.admin),
    ...adminSecurityRoutes(services.adminSecurity),
    ...deviceRoutes(services.devices),
    ...ldapRoutes(services.ldap),
    ...keywordRoutes(services.keywordAdmin, services.review),
    ...pushRoutes(services.push),
  });
  registerStorageRoutes(app, ctx.storage);
  registerExportDownload(app, ctx, services.exports);
  registerScanPages(app);
  registerSsoPages(app, ctx, services.sso);
  registerRobotWebhook(app, ctx, services.robots);
  await registerOpsRoutes(app, {
    metrics: ctx.metrics,
    readiness,
    metricsToken: ctx.env.metricsToken,
  });
}

/** The built web client, when there is one: files looked up per request, hashed assets cached for a year. */
async function registerWebClient(app: FastifyInstance, env: ServerConfig): Promise<void> {
  if (env.webDist && fs.existsSync(path.join(env.webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: env.webDist,
      prefix: '/',
      // Files are looked up per request, so a rebuilt client is served without a restart.
      wildcard: true,
      index: ['index.html'],
      setHeaders: (res, file) => {
        res.setHeader('x-content-type-options', 'nosniff');
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
    });
  }
}

/** Closing the app stops the background work, then closes the limits, the carriers and the database, in that order. */
function closeOnShutdown(
  app: FastifyInstance,
  ctx: AppContext,
  services: Services,
  parts: { announcements: AnnouncementWatcher; opened: OpenedDb } & Pick<Carriers, 'bus' | 'presence'>,
): void {
  const { announcements, opened, bus, presence } = parts;
  app.addHook('onClose', async () => {
    // The sockets closed at preClose go offline (their 最近在线 written) while everything still runs.
    await ctx.realtime.dropAll();
    ctx.config.stop();
    ctx.keywords.stop();
    announcements.stop();
    await services.calls.stop();
    await services.polls.stop();
    await services.chains.stop();
    await services.pipeline.stop();
    await services.search.stop();
    await services.push.stop();
    await services.botDeliveries.stop();
    await services.exports.stop();
    await services.retention.stop();
    await ctx.limits.close();
    await bus.close();
    await presence.close();
    await opened.close();
  });
}
