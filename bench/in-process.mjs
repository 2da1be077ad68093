// The server built in a benchmark's own process from its source (run under tsx), with its timers
// off and no web client, called through app.inject: the route loop, the queries, the JSON, no socket.
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';

/** The app on `dataDir` (and PostgreSQL when `databaseUrl` is given), and `call`, which answers a route's data or throws. */
export async function inProcessApp({ dataDir, databaseUrl }) {
  const built = await buildApp(
    {
      ...loadConfig({}),
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl,
      redisUrl: undefined,
      webDist: undefined,
      configPollMs: 0,
      outboxSweepMs: 0,
      searchIndexMs: 0,
      logLevel: 'silent',
    },
    { logger: false },
  );
  async function call(path, body, token) {
    const res = await built.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', authorization: token },
      payload: JSON.stringify(body),
    });
    const json = res.json();
    if (json.code !== 0) throw new Error(`${path}: ${json.code} ${json.msg}`);
    return json.data;
  }
  return { ...built, call };
}
