/** What other modules may use of accounts; everything else in this folder is its own. */
export { DELETED_STATUS } from './erase-repo';
export type { AccountService } from './service';
