/** What other modules may use of upload; everything else in this folder is its own. */
export * from './files';
export * from './service';
export * from './repo';
