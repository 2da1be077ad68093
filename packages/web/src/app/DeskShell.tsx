import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, type Location } from 'react-router';
import logo from '../assets/logo.svg';
import { PaneContext, type PaneValue } from '../components/desk/pane';
import { Splitter } from '../components/desk/Splitter';
import {
  clampListWidth,
  maxListWidth,
  openChatKey,
  openContactId,
  setPanelCloser,
  type Place,
  type RailTab,
} from '../lib/desk-panes';
import { storage } from '../lib/storage';
import HomePage from '../pages/index/index';
import { useConfig } from '../stores/config';
import type { PageRoutes } from './PageRoutes';
import './desk-shell.css';

/*
 * The panes of the wide layout around the middle page (Screen.tsx, whose chunk they share, keeps the middle itself): the rail
 * and the list it picks (the home page, drawn as a column) with the splitter, the empty middle, and
 * the right panel for a chat's info, a group's members or a profile opened from a chat.
 */

/** What the middle shows with no page open: the logo and, for the lists that open one, what to pick. */
export function EmptyMiddle({ rail }: { rail: RailTab }) {
  const { t } = useTranslation();
  const sysInfo = useConfig((s) => s.config?.sysInfo);
  const name = sysInfo?.name || t('app.name');
  const hint = rail === 'messages' ? t('desk.panes.noChat') : rail === 'contacts' ? t('desk.panes.noContact') : null;
  return (
    <main id="main" className="desk-empty">
      <img className="desk-empty-logo" src={sysInfo?.logo || logo} alt={t('about.logo', { name })} />
      {hint && <p className="desk-empty-text">{hint}</p>}
    </main>
  );
}

/** The window's width, following resizing. */
function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const handleResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', handleResize);
    return () => window.removeEventListener('resize', handleResize);
  }, []);
  return width;
}

const LIST_ID = 'desk-list';

/**
 * The rail and the list it picks, as wide as dragged (kept), never so wide that the chat beside it
 * and an open panel get squeezed: a narrower window draws it narrower, the kept width comes back
 * when there is room again.
 */
export function DeskList({
  rail,
  middle,
  onRail,
}: {
  rail: RailTab;
  middle: Place | null;
  /** A tab of the rail picked: the list changes, the page in the middle stays. */
  onRail: (tab: RailTab) => void;
}) {
  const [kept, setKept] = useState(() => clampListWidth(storage.get('deskList')?.width));
  const max = maxListWidth(useWindowWidth());
  const width = clampListWidth(kept, max);
  const commitWidth = useCallback((next: number) => storage.set('deskList', { width: next }), []);

  const openChat = middle ? openChatKey(middle) : null;
  const openContact = middle ? openContactId(middle) : null;
  const listPane = useMemo<PaneValue>(
    () => ({ pane: 'list', tab: rail, openChat, openContact, onRail }),
    [rail, openChat, openContact, onRail],
  );
  return (
    <>
      <div id={LIST_ID} className="desk-list" style={{ '--desk-list-width': `${width}px` } as CSSProperties}>
        <PaneContext.Provider value={listPane}>
          <HomePage />
        </PaneContext.Provider>
      </div>
      <Splitter width={width} max={max} controls={LIST_ID} onChange={setKept} onCommit={commitWidth} />
    </>
  );
}

/**
 * The right panel, while the address is one that opens there. Its back button steps back through the
 * pages it went through (`depth`: how many entries of the history since it opened) and closes it from
 * its first; closing it (Esc, or the middle's doing) steps back to the page beside it at once.
 */
export function DeskPanel({
  location,
  behind,
  depth,
  Pages,
}: {
  location: Location | null;
  behind: string | null;
  depth: () => number;
  Pages: typeof PageRoutes;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const closePanel = useCallback(() => {
    if (!behind) return;
    const steps = depth();
    if (steps > 0) void navigate(-steps);
    else void navigate(behind, { replace: true });
  }, [behind, depth, navigate]);
  const panelBack = useCallback(() => {
    if (depth() > 0) void navigate(-1);
    else if (behind) void navigate(behind, { replace: true });
  }, [behind, depth, navigate]);

  const open = location !== null;
  useEffect(() => {
    setPanelCloser(open ? closePanel : null);
    return () => setPanelCloser(null);
  }, [open, closePanel]);

  // Focus that was in the panel goes back to the page beside it when the panel closes.
  const wasOpen = useRef(open);
  useEffect(() => {
    const closed = wasOpen.current && !open;
    wasOpen.current = open;
    if (closed && (document.activeElement === document.body || document.activeElement === null)) {
      const middle = document.querySelector('.desk-middle');
      const target =
        middle?.querySelector<HTMLElement>('.composer-input') ?? middle?.querySelector<HTMLElement>('button');
      target?.focus({ preventScroll: true });
    }
  }, [open]);

  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const panelPane = useMemo<PaneValue>(() => ({ pane: 'panel', onBack: panelBack, scroller }), [panelBack, scroller]);

  if (!location) return null;
  return (
    <aside className="desk-panel" aria-label={t('desk.panes.panel')} ref={setScroller}>
      <PaneContext.Provider value={panelPane}>
        <Pages location={location} />
      </PaneContext.Provider>
    </aside>
  );
}
