/** What other modules may use of im; everything else in this folder is its own. */
export { ChainRepo } from './chains-repo';
export * from './hydrate';
export * from './presenter';
export * from './repo';
export { highlights, queryTerms, searchText, termQuery, wordTokens } from './search-text';
export * from './send/pipeline';
export * from './service';
