import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useLocation, useNavigate, useNavigationType, type Location } from 'react-router';
import { PaneContext, type PaneValue } from '../components/desk/pane';
import {
  behindPanel,
  deskLayout,
  homeAddress,
  panelBase,
  parseMemory,
  rememberLayout,
  setMiddlePlace,
  type DeskLayout,
  type DeskMemory,
  type Place,
  type RailTab,
} from '../lib/desk-panes';
import { useDeskScreen, wholeWindow } from '../lib/desk-screen';
import { historyIndex } from '../nav/navigation';
import { sessionStore, useSession } from '../stores/session';
import { DeskList, DeskPanel, EmptyMiddle } from './DeskShell';
import type { PageRoutes } from './PageRoutes';

/** The layout's memory lives for the tab's life, so a reload of a panel's address keeps the page beside it. */
const MEMORY_KEY = 'sparrow.desk';

function readMemory(): DeskMemory {
  try {
    return parseMemory(sessionStorage.getItem(MEMORY_KEY));
  } catch {
    return parseMemory(null);
  }
}

function writeMemory(memory: DeskMemory): void {
  try {
    sessionStorage.setItem(MEMORY_KEY, JSON.stringify(memory));
  } catch {
    // Without sessionStorage a reload opens a profile in the middle rather than beside its chat.
  }
}

function forgetMemory(): void {
  try {
    sessionStorage.removeItem(MEMORY_KEY);
  } catch {
    // Nothing was kept.
  }
}

/** What a history entry showing the right panel keeps: the page beside it and the entry it was opened from. */
interface PanelRecord {
  middle: Place;
  base: number;
}

function recordOf(state: unknown): PanelRecord | null {
  const desk = state && typeof state === 'object' ? (state as { desk?: unknown }).desk : undefined;
  if (!desk || typeof desk !== 'object') return null;
  const { middle, base } = desk as { middle?: Partial<Place>; base?: unknown };
  if (typeof middle?.pathname !== 'string' || typeof middle.search !== 'string' || typeof base !== 'number')
    return null;
  return { middle: { pathname: middle.pathname, search: middle.search }, base };
}

/**
 * Kept in the entry's own state (react-router's `usr` of history.state), so Back and Forward into it,
 * and a reload of it, find the same page beside the panel and how far the panel went.
 */
function writeRecord(record: PanelRecord): void {
  const entry: unknown = window.history.state;
  if (!entry || typeof entry !== 'object') return;
  const usr = (entry as { usr?: unknown }).usr;
  if (usr !== null && usr !== undefined && typeof usr !== 'object') return;
  window.history.replaceState({ ...entry, usr: { ...(usr ?? {}), desk: record } }, '');
}

const samePlace = (a: Place, b: Place) => a.pathname === b.pathname && a.search === b.search;

function asLocation(place: Place): Location {
  return { ...place, hash: '', state: null, key: 'desk' };
}

/** In the phone layout the wrappers of the panes draw nothing: the page is the screen. */
const SEAMLESS: CSSProperties = { display: 'contents' };

type Panes = Extract<DeskLayout, { kind: 'panes' }>;

/**
 * The page of the address for someone signed in. On a screen of DESK_MIN_WIDTH or more it sits in
 * the middle of the wide layout, with the rail and the list on its left and the right panel beside it
 * (the console and a call still cover the window); otherwise it is the screen. The middle page keeps
 * its place in the tree in both layouts, so a window resized across the threshold keeps what the
 * page holds (a recording, a quote, where it was scrolled). The route table's pages are handed to
 * it (`Pages`), not imported by it, which keeps the first screen's chunks whole. The panes are
 * decided by lib/desk-panes.ts from the address, what its history entry recorded and what was in
 * the middle before.
 */
export default function Screen({ Pages }: { Pages: typeof PageRoutes }) {
  const desk = useDeskScreen();
  const signedIn = useSession((s) => s.token !== null);
  const userId = useSession((s) => s.user?.user_id ?? null);
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const wide = desk && signedIn && !wholeWindow(location.pathname);

  const [memoryAtStart] = useState(readMemory);
  const memory = useRef<DeskMemory>(memoryAtStart);
  // Another account, or none: what the layout remembered was the last one's.
  const seenUser = useRef(userId);
  useEffect(() => {
    if (seenUser.current === userId) return;
    if (seenUser.current !== null) {
      forgetMemory();
      memory.current = parseMemory(null);
    }
    seenUser.current = userId;
  }, [userId]);
  useEffect(
    () => () => {
      if (sessionStore.getState().token === null) forgetMemory();
    },
    [],
  );

  // A tab of the rail picked beside an open page changes the list only, not the address.
  const [railPick, setRailPick] = useState<{ rail: RailTab; key: string } | null>(null);
  const recorded = useRef<{ key: string; record: PanelRecord } | null>(null);
  const record = recordOf(location.state) ?? (recorded.current?.key === location.key ? recorded.current.record : null);
  const found = wide ? deskLayout(location, memory.current, record?.middle ?? null) : null;
  const panes: Panes | null =
    found?.kind === 'panes' ? { ...found, rail: railPick?.key === location.key ? railPick.rail : found.rail } : null;

  const middleSeen = useRef<Location | null>(null);
  const middle = panes?.middle ?? null;
  const middleLocation = useMemo((): Location | null => {
    if (!middle) return null;
    if (samePlace(middle, location)) return location;
    const seen = middleSeen.current;
    return seen && samePlace(seen, middle) ? seen : asLocation(middle);
  }, [middle, location]);
  const panelLocation = panes?.panel ? location : null;

  useEffect(() => {
    if (!panes) {
      setMiddlePlace(null);
      return;
    }
    const next = rememberLayout(panes, memory.current);
    if (JSON.stringify(next) !== JSON.stringify(memory.current)) writeMemory(next);
    memory.current = next;
    if (middleLocation) middleSeen.current = middleLocation;
    setMiddlePlace(panes.middle);
  });

  // The entry the panel was opened from, so closing it steps back there through the pages it went through.
  const base = useRef<number | null>(null);
  const lastPanel = useRef<PanelRecord | null>(null);
  const panelMiddle = panelLocation ? middle : null;
  useLayoutEffect(() => {
    if (!panelMiddle) {
      base.current = null;
      lastPanel.current = null;
      return;
    }
    const idx = historyIndex();
    const previous =
      lastPanel.current && samePlace(lastPanel.current.middle, panelMiddle) ? lastPanel.current.base : null;
    const next: PanelRecord = {
      middle: panelMiddle,
      base: panelBase(idx, record?.base ?? null, previous, navigationType === 'PUSH'),
    };
    base.current = next.base;
    lastPanel.current = next;
    if (!record || record.base !== next.base || !samePlace(record.middle, next.middle)) {
      writeRecord(next);
      recorded.current = { key: location.key, record: next };
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per entry shown: the record is what the entry keeps, not something to follow
  }, [location.key, panelMiddle?.pathname, panelMiddle?.search]);
  const panelDepth = useCallback(() => (base.current === null ? 0 : Math.max(0, historyIndex() - base.current)), []);

  const locationKey = location.key;
  const pickRail = useCallback(
    (rail: RailTab) => {
      if (middle) setRailPick({ rail, key: locationKey });
      else void navigate(homeAddress(rail), { replace: true });
    },
    [middle, locationKey, navigate],
  );

  const [middleScroller, setMiddleScroller] = useState<HTMLDivElement | null>(null);
  const middlePane = useMemo<PaneValue>(() => ({ pane: 'middle', scroller: middleScroller }), [middleScroller]);

  useEffect(() => {
    if (!wide) return;
    document.documentElement.classList.add('desk-layout');
    return () => document.documentElement.classList.remove('desk-layout');
  }, [wide]);

  return (
    <div className={panes ? 'desk' : undefined} style={panes ? undefined : SEAMLESS}>
      {panes ? <DeskList rail={panes.rail} middle={panes.middle} onRail={pickRail} /> : null}
      <div
        className={panes ? 'desk-middle' : undefined}
        style={panes ? undefined : SEAMLESS}
        ref={panes ? setMiddleScroller : undefined}
      >
        <PaneContext.Provider value={panes ? middlePane : null}>
          {panes && !middleLocation ? null : <Pages location={middleLocation ?? location} />}
          {panes && !middleLocation ? <EmptyMiddle rail={panes.rail} /> : null}
        </PaneContext.Provider>
      </div>
      {panes ? (
        <DeskPanel location={panelLocation} behind={behindPanel(panes)} depth={panelDepth} Pages={Pages} />
      ) : null}
    </div>
  );
}
