import { buildApp } from './app';
import { loadConfig } from './config';

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

await app.listen({ port: env.port, host: env.host });
console.log(
  `\n  Sparrow is running at ${env.publicUrl}\n  data: ${env.dataDir}${env.databaseUrl ? ' (database: PostgreSQL)' : ''}\n`,
);
