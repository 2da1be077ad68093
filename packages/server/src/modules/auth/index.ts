/** What other modules may use of auth; everything else in this folder is its own. */
export * from './session';
export * from './session-repo';
