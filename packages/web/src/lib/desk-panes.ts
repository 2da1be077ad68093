import { chatPath, groupPaths, mediaPaths, momentPaths, paths, qrPaths, routePathOf, withQuery } from '../nav/paths';
import { wholeWindow } from './desk-screen';

/*
 * The wide layout (≥ DESK_MIN_WIDTH of desk-screen.ts): a rail of the four tabs, the list the rail picks, the page of
 * the address in the middle, and a right panel for a chat's info, a group's members or robots, or a profile
 * opened from a chat. Every page keeps its own address; these rules say which pane it goes to.
 */

/** The tabs of the rail: what the left column lists. */
export type RailTab = 'messages' | 'contacts' | 'discover' | 'me';

export const RAIL_TABS: readonly RailTab[] = ['messages', 'contacts', 'discover', 'me'];

/** The width of the list beside the rail, px: dragged or set by keys between the two bounds. */
export const LIST_WIDTH = { min: 240, max: 480, initial: 300, step: 16 } as const;

/** The rail's and the right panel's widths, px (desk-shell.css draws them), and the narrowest chat beside them. */
export const DESK_COLUMNS = { rail: 68, panel: 320, middle: 400 } as const;

/**
 * The widest the list may be in a window `windowWidth` px wide: the chat keeps DESK_COLUMNS.middle
 * beside the rail, the list and an open panel, down to the list's own minimum.
 */
export function maxListWidth(windowWidth: number): number {
  const room = Math.floor(windowWidth) - DESK_COLUMNS.rail - DESK_COLUMNS.panel - DESK_COLUMNS.middle;
  return Math.min(LIST_WIDTH.max, Math.max(LIST_WIDTH.min, room));
}

/** A list width within its bounds (and `max`, the window's), whole pixels; anything unreadable is the initial width. */
export function clampListWidth(width: unknown, max: number = LIST_WIDTH.max): number {
  const wanted = typeof width !== 'number' || !Number.isFinite(width) ? LIST_WIDTH.initial : Math.round(width);
  return Math.min(max, LIST_WIDTH.max, Math.max(LIST_WIDTH.min, wanted));
}

/** The width after a key pressed on the splitter, or null for a key it leaves alone. */
export function listWidthAfterKey(width: number, key: string, max: number = LIST_WIDTH.max): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampListWidth(width - LIST_WIDTH.step, max);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampListWidth(width + LIST_WIDTH.step, max);
    case 'Home':
      return LIST_WIDTH.min;
    case 'End':
      return clampListWidth(LIST_WIDTH.max, max);
    default:
      return null;
  }
}

/** The pages about one chat that open beside it, in the right panel; each names the chat by `id`. */
const CHAT_PANELS: readonly string[] = [paths.chatDetail, groupPaths.info, groupPaths.members, groupPaths.robots];

/** Where the pages of an area put the rail when nothing before them chose it (a deep link). */
const AREA_RAIL: readonly (readonly [readonly string[], RailTab])[] = [
  [[paths.contactDetail, paths.friend, paths.contactSearch, paths.groupList], 'contacts'],
  [[...Object.values(momentPaths), qrPaths.scan], 'discover'],
  [
    [
      paths.profile,
      paths.secure,
      paths.about,
      paths.setting,
      paths.tokens,
      paths.bots,
      paths.blocked,
      paths.reports,
      paths.doc,
      mediaPaths.files,
      mediaPaths.favorites,
      qrPaths.mycode,
      qrPaths.webLogin,
    ],
    'me',
  ],
];

/** An address inside the app: a path and its query (`?id=5`, or empty). */
export interface Place {
  pathname: string;
  search: string;
}

/** What the panes show for an address. */
export type DeskLayout =
  | { kind: 'whole' }
  | {
      kind: 'panes';
      rail: RailTab;
      /** The page in the middle, or null for the empty middle. */
      middle: Place | null;
      /** The page in the right panel, or null while it is closed. */
      panel: Place | null;
    };

/** What the layout remembers between addresses: the last page in the middle and the rail's tab. */
export interface DeskMemory {
  middle: Place | null;
  rail: RailTab | null;
}

/** The place of an in-app address such as `chatPath('5')`. */
export function placeOf(address: string): Place {
  const at = address.indexOf('?');
  return at < 0 ? { pathname: address, search: '' } : { pathname: address.slice(0, at), search: address.slice(at) };
}

function isRailTab(v: string | null): v is RailTab {
  return (RAIL_TABS as readonly (string | null)[]).includes(v);
}

function isChat(place: Place | null, key?: string): boolean {
  if (!place || routePathOf(place.pathname) !== paths.chat) return false;
  return key === undefined || new URLSearchParams(place.search).get('id') === key;
}

/**
 * The tab of a home address: Contacts at /pages/contacts/index, Discover or Me by `?tab=` on
 * /pages/index/index, else Messages.
 */
export function homeTab(place: Place): RailTab {
  if (routePathOf(place.pathname) === paths.contacts) return 'contacts';
  const tab = new URLSearchParams(place.search).get('tab');
  return isRailTab(tab) ? tab : 'messages';
}

/** The address of a tab of home: Messages and Contacts have their own, Discover and Me a `?tab=`. */
export function homeAddress(tab: RailTab): string {
  if (tab === 'messages') return paths.home;
  return tab === 'contacts' ? paths.contacts : withQuery(paths.home, { tab });
}

/**
 * The panes for an address. A chat's info or members open beside that chat; a profile opens beside
 * the chat it was opened from (while the rail lists the chats), and in the middle from anywhere else.
 * `pinned` is the middle page the history entry recorded when its panel opened, which wins over
 * `memory` (the last middle page, for a reload): Back into a panel finds the chat it was beside.
 * The rail follows the page where the page belongs to one tab (a chat to Messages) and otherwise
 * stays where it was.
 */
export function deskLayout(place: Place, memory: DeskMemory, pinned: Place | null = null): DeskLayout {
  const path = routePathOf(place.pathname);
  if (path === undefined || wholeWindow(path)) return { kind: 'whole' };
  const params = new URLSearchParams(place.search);

  if (path === paths.home || path === paths.contacts) {
    return { kind: 'panes', rail: homeTab(place), middle: null, panel: null };
  }
  if (CHAT_PANELS.includes(path)) {
    const key = params.get('id') ?? '';
    const middle = [pinned, memory.middle].find((m) => isChat(m, key)) ?? placeOf(chatPath(key));
    return { kind: 'panes', rail: 'messages', middle, panel: place };
  }
  if (path === paths.contactDetail) {
    const beside = isChat(pinned) ? pinned : isChat(memory.middle) && memory.rail !== 'contacts' ? memory.middle : null;
    if (beside) return { kind: 'panes', rail: 'messages', middle: beside, panel: place };
  }
  if (path === paths.chat) return { kind: 'panes', rail: 'messages', middle: place, panel: null };
  const area = AREA_RAIL.find(([pages]) => pages.includes(path))?.[1];
  return { kind: 'panes', rail: memory.rail ?? area ?? 'messages', middle: place, panel: null };
}

/** Whether the right panel shows the address (a chat's info or members, a profile beside a chat). */
export function inPanel(layout: DeskLayout): boolean {
  return layout.kind === 'panes' && layout.panel !== null;
}

/** The memory after showing a layout: the middle page and the rail it had. */
export function rememberLayout(layout: DeskLayout, memory: DeskMemory): DeskMemory {
  if (layout.kind === 'whole') return memory;
  return { middle: layout.middle, rail: layout.rail };
}

/** The chat an address shows or shows the info of (its key), for the list to mark; null for others. */
export function openChatKey(place: Place): string | null {
  const path = routePathOf(place.pathname);
  if (path !== paths.chat && !(path !== undefined && CHAT_PANELS.includes(path))) return null;
  return new URLSearchParams(place.search).get('id');
}

/** The person whose profile an address shows (their user id), for the contacts list to mark. */
export function openContactId(place: Place): string | null {
  return routePathOf(place.pathname) === paths.contactDetail ? new URLSearchParams(place.search).get('id') : null;
}

/** The address a closed panel leaves: the page beside it. */
export function behindPanel(layout: DeskLayout): string | null {
  if (layout.kind !== 'panes' || !layout.panel) return null;
  return layout.middle ? `${layout.middle.pathname}${layout.middle.search}` : paths.home;
}

/**
 * The history index of the page the panel was opened from, for the entry at `idx` showing a panel:
 * the one the entry recorded; else the one of the entry before it when that showed the panel too (a
 * link followed inside the panel, or a replace); else the entry before it when the panel was opened
 * by a link (a push), or this very entry for a link opened from outside or a reload.
 */
export function panelBase(idx: number, recorded: number | null, previous: number | null, pushed: boolean): number {
  if (recorded !== null && recorded <= idx) return recorded;
  if (previous !== null && previous <= idx) return previous;
  return pushed ? Math.max(0, idx - 1) : idx;
}

/**
 * The chat Alt+↑/↓ moves from: the one at the address, or with a panel open the chat in the middle
 * beside it (`middle`); null from any other page.
 */
export function chatToMoveFrom(address: Place, middle: Place | null): string | null {
  if (isChat(address)) return new URLSearchParams(address.search).get('id');
  return middle && isChat(middle) ? new URLSearchParams(middle.search).get('id') : null;
}

let panelCloser: (() => void) | null = null;
let middlePlace: Place | null = null;

/** The layout says which page is in the middle (null in the phone layout or with an empty middle). */
export function setMiddlePlace(place: Place | null): void {
  middlePlace = place;
}

/** The page in the wide layout's middle pane, or null. */
export function currentMiddle(): Place | null {
  return middlePlace;
}

/** Whether a right panel is open. */
export function panelIsOpen(): boolean {
  return panelCloser !== null;
}

/** The layout hands over how its right panel closes while one is open (null once closed). */
export function setPanelCloser(close: (() => void) | null): void {
  panelCloser = close;
}

/** Closes the right panel when one is open (Esc); answers whether there was one. */
export function closePanel(): boolean {
  if (!panelCloser) return false;
  panelCloser();
  return true;
}

/** The memory read back from sessionStorage; anything unreadable is an empty memory. */
export function parseMemory(raw: string | null): DeskMemory {
  const empty: DeskMemory = { middle: null, rail: null };
  if (!raw) return empty;
  try {
    const v = JSON.parse(raw) as { middle?: unknown; rail?: unknown };
    const m = v.middle as Partial<Place> | null | undefined;
    const middle =
      m && typeof m.pathname === 'string' && typeof m.search === 'string' && !wholeWindow(m.pathname)
        ? { pathname: m.pathname, search: m.search }
        : null;
    const rail = typeof v.rail === 'string' && isRailTab(v.rail) ? v.rail : null;
    return { middle, rail };
  } catch {
    return empty;
  }
}
