/** What other modules may use of retention; everything else in this folder is its own. */
export * from './service';
