import { buildApp } from './app';
import { loadConfig } from './config';

/**
 * Connections the kernel may hold for the server before it accepts them (capped by the system's
 * net.core.somaxconn). When a restart sends thousands of clients back at once, Node's default of
 * 511 overflows: the kernel drops their handshakes and each retries a second or more later
 * (`nstat` TcpExtListenOverflows; `npm run bench -- reconnect-storm`).
 */
const LISTEN_BACKLOG = 8192;

const env = loadConfig();
const { app, readiness } = await buildApp(env);

let closing = false;
let draining: NodeJS.Timeout | undefined;
const close = () => {
  if (closing) return;
  closing = true;
  clearTimeout(draining);
  app.close().then(
    () => app.log.info('closed'),
    (err: unknown) => {
      app.log.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    },
  );
};
/**
 * SIGTERM, as a service manager or an orchestrator stops a node: first SHUTDOWN_DRAIN_MS of serving
 * while /readyz says not ready, so that the load balancer in front moves new requests elsewhere,
 * then closing (sockets told to reconnect elsewhere, requests under way answered, the rest 503).
 * SIGINT, a person at a terminal, or a second signal: closing at once.
 */
const shutdown = (signal: NodeJS.Signals) => {
  if (closing) return;
  const drainMs = signal === 'SIGTERM' && draining === undefined ? env.shutdownDrainMs : 0;
  app.log.info({ signal, drainMs }, 'shutting down');
  readiness.stop();
  if (drainMs > 0) draining = setTimeout(close, drainMs);
  else close();
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

await app.listen({ port: env.port, host: env.host, backlog: LISTEN_BACKLOG });
console.log(
  `\n  Sparrow is running at ${env.publicUrl}\n  data: ${env.dataDir}${env.databaseUrl ? ' (database: PostgreSQL)' : ''}\n`,
);
