/** What other modules may use of bot; everything else in this folder is its own. */
export * from './deliveries';
export * from './repo';
export * from './routes';
export * from './service';
