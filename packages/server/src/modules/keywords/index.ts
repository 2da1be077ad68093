/** What other modules may use of keywords; everything else in this folder is its own. */
export { KeywordScreen } from './screen';
export { screenMessage } from './message';
export { KeywordRepo, HeldStatus, type HeldRow } from './repo';
export { KeywordAdmin } from './manage';
export { ReviewService } from './review';
export { keywordRoutes } from './routes';
