/** What other modules may use of moments; everything else in this folder is its own. */
export * from './repo';
export { admitsFriend, admitsNoFriend, readsNamed } from './visibility';
