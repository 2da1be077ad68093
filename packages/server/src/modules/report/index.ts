/** What other modules may use of reports; everything else in this folder is its own. */
export { requireUnmuted } from './mute';
