/** What other modules may use of emoji; everything else in this folder is its own. */
export * from './repo';
