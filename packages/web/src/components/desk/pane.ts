import { createContext, useContext } from 'react';
import type { RailTab } from '../../lib/desk-panes';

/** Which pane of the wide layout a page is drawn in (none: the phone layout, the page is the screen). */
export interface PaneValue {
  pane: 'list' | 'middle' | 'panel';
  /** The list pane: the rail's tab, whatever the address. */
  tab?: RailTab;
  /** The list pane: the key of the chat in the middle, which the Messages list marks. */
  openChat?: string | null;
  /** The list pane: the user id of the profile in the middle, which the Contacts list marks. */
  openContact?: string | null;
  /** The list pane beside an open page: a tab of the rail changes the list only (no address, no history). */
  onRail?: (tab: RailTab) => void;
  /** The right panel: its back button steps back inside it, and closes it from its first page. */
  onBack?: () => void;
  /** The middle pane and the panel scroll by themselves, not the window: a list that follows scrolling follows this. */
  scroller?: HTMLElement | null;
}

export const PaneContext = createContext<PaneValue | null>(null);

/** The pane the page is drawn in, or null in the phone layout. */
export function usePane(): PaneValue | null {
  return useContext(PaneContext);
}
