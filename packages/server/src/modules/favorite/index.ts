/** What other modules may use of favourites; everything else in this folder is its own. */
export * from './repo';
