import { serverBuild } from './harness';

/** Builds the server bundle once, as `npm start` would, before any suite starts a server. */
export default async function setup(): Promise<void> {
  await (await serverBuild()).ensureServerBuild();
}
