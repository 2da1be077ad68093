import path from 'node:path';
import { serverBuild } from './harness';

/** Builds the suite's own server bundle, as `npm start` would, before any suite starts a server. */
export default async function setup(): Promise<void> {
  const { buildServer, e2eServerDist } = await serverBuild();
  const started = performance.now();
  await buildServer(e2eServerDist);
  console.log(`Built ${path.basename(e2eServerDist)}/main.js in ${Math.round(performance.now() - started)} ms`);
}
