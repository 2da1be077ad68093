/** What other modules may use of push; everything else in this folder is its own. */
export type { PushLimits } from './limits';
export * from './repo';
export * from './service';
