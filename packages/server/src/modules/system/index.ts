/** What other modules may use of system; everything else in this folder is its own. */
export * from './config-service';
export * from './repo';
export * from './announcement-repo';
