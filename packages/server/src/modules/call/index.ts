/** What other modules may use of call; everything else in this folder is its own. */
export * from './service';
