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
const { app } = await buildApp(env);

let closing = false;
const shutdown = (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  app.close().then(
    () => app.log.info('closed'),
    (err: unknown) => {
      app.log.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

await app.listen({ port: env.port, host: env.host, backlog: LISTEN_BACKLOG });
console.log(
  `\n  Sparrow is running at ${env.publicUrl}\n  data: ${env.dataDir}${env.databaseUrl ? ' (database: PostgreSQL)' : ''}\n`,
);
