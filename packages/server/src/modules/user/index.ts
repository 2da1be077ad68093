/** What other modules may use of user; everything else in this folder is its own. */
export * from './department-repo';
export * from './presenter';
export * from './readers';
export * from './repo';
