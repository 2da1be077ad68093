/** What other modules may use of robot; everything else in this folder is its own. */
export * from './repo';
export * from './routes';
export * from './service';
