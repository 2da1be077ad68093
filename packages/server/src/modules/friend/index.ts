/** What other modules may use of friend; everything else in this folder is its own. */
export * from './presenter';
export * from './repo';
