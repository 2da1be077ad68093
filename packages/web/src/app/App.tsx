import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter, useLocation, useNavigate } from 'react-router';
import { afterLocale } from '../i18n';
import { setNavigator } from '../nav/navigation';
import { titleWithUnread } from '../lib/notification';
import { selectUnread, useContacts } from '../stores/contacts';
import { useSession } from '../stores/session';
import { showUnreadOnIcon } from './favicon';
import { lazyPage } from './lazy-page';
import { PageRoutes } from './PageRoutes';
import { findRoute } from './routes';

/** Hands the router's navigate to code outside React (request layer, socket events). */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator(navigate);
    return () => setNavigator(null);
  }, [navigate]);
  return null;
}

/**
 * document.title follows the route's title (docs/product.md §2) in the current language, with the
 * Messages tab's unread count before it ("(3) 首页"), which the page's icon shows too.
 */
function TitleSync() {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation();
  const route = findRoute(pathname);
  const signedIn = useSession((s) => s.token !== null);
  const unread = useContacts(selectUnread);
  const count = signedIn ? unread : 0;
  useEffect(() => {
    // A signed-in page's title may be in the locale's rest part: it is set once that is in.
    if (!route || !i18n.exists(String(route.title))) return;
    document.title = titleWithUnread(t(route.title), count, (p) => t('home.titleUnread', p));
  }, [route, t, i18n, count]);
  useEffect(() => showUnreadOnIcon(count), [count]);
  return null;
}

// Its own chunk, loaded once someone is signed in: the first screen carries no call code.
const CallReturn = lazy(afterLocale(() => import('../components/call/CallReturn')));

/** While a call goes on and its screen is not shown, a bar leads back to it. */
function CallReturnBar() {
  const signedIn = useSession((s) => s.token !== null);
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <CallReturn />
    </Suspense>
  );
}

// Its own chunk too: the shortcuts at a desk (quick switcher, moving between chats, the list of keys).
const DeskKeys = lazy(afterLocale(() => import('../components/desk/DeskKeys')));

function DeskShortcuts() {
  const signedIn = useSession((s) => s.token !== null);
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <DeskKeys />
    </Suspense>
  );
}

// Its own chunk, with the wide layout (its rules and panes): the screen of someone signed in, asked for
// when it is first drawn, and shown once the locale's rest part is in; the login page does without both.
const Screen = lazyPage(afterLocale(() => import('./Screen')));

/** The page of the address: signed out, alone; signed in, inside the screen that lays out the panes. */
function Pages() {
  const signedIn = useSession((s) => s.token !== null);
  return signedIn ? <Screen Pages={PageRoutes} /> : <PageRoutes />;
}

export function App() {
  return (
    <HashRouter>
      <NavigatorBridge />
      <TitleSync />
      <CallReturnBar />
      <DeskShortcuts />
      <Pages />
    </HashRouter>
  );
}
