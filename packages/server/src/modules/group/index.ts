/** What other modules may use of group; everything else in this folder is its own. */
export * from './presenter';
export * from './profile';
export * from './repo';
