/** What other modules may use of block lists; everything else in this folder is its own. */
export * from './repo';
