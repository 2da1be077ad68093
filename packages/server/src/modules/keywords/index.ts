/** What other modules may use of keywords; everything else in this folder is its own. */
export { KeywordScreen, type Screened } from './screen';
export { screenMessage } from './message';
export { KeywordRepo, HeldStatus, type HeldRow } from './repo';
export { KeywordMatcher, foldText, type KeywordAction, type Screening } from './matcher';
export { KeywordAdmin } from './manage';
export { ReviewService, type HeldOutlets } from './review';
export { keywordRoutes } from './routes';
