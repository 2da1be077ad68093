import path from 'node:path';
import { serverBuild } from './harness';

/** Builds the suite's own server bundle, as `npm start` would, before any suite starts a server. */
export default async function setup(): Promise<void> {
  // `npm test` builds it once for the phone and the wide runs, which run side by side.
  if (process.env.E2E_SERVER_BUILT === '1') return;
  const { buildServer, e2eServerDist } = await serverBuild();
  const started = performance.now();
  await buildServer(e2eServerDist);
  console.log(`Built ${path.basename(e2eServerDist)}/main.js in ${Math.round(performance.now() - started)} ms`);
}
