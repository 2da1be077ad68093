/** What other modules may use of im; everything else in this folder is its own. */
export * from './presenter';
export * from './service';
