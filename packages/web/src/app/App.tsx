import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { setNavigator } from '../nav/navigation';
import { titleWithUnread } from '../lib/notification';
import { paths } from '../nav/paths';
import { loginPath } from '../nav/return-to';
import { selectUnread, useContacts } from '../stores/contacts';
import { useSession } from '../stores/session';
import { showUnreadOnIcon } from './favicon';
import { appRoutes, findRoute } from './routes';

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
  const { t } = useTranslation();
  const route = findRoute(pathname);
  const signedIn = useSession((s) => s.token !== null);
  const unread = useContacts(selectUnread);
  const count = signedIn ? unread : 0;
  useEffect(() => {
    if (route) document.title = titleWithUnread(t(route.title), count, (p) => t('home.titleUnread', p));
  }, [route, t, count]);
  useEffect(() => showUnreadOnIcon(count), [count]);
  return null;
}

/**
 * A page that needs a session; a signed-out visitor signs in (or registers) and comes back to it,
 * unless they have just signed out from it.
 */
function RequireAuth({ children }: { children: React.ReactNode }) {
  const signedIn = useSession((s) => s.token !== null);
  const signedOut = useSession((s) => s.signedOut);
  const { pathname, search } = useLocation();
  if (signedIn) return children;
  return <Navigate to={signedOut ? paths.login : loginPath(`${pathname}${search}`)} replace />;
}

// Its own chunk, loaded once someone is signed in: the first screen carries no call code.
const CallReturn = lazy(() => import('../components/call/CallReturn'));

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
const DeskKeys = lazy(() => import('../components/desk/DeskKeys'));

function DeskShortcuts() {
  const signedIn = useSession((s) => s.token !== null);
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <DeskKeys />
    </Suspense>
  );
}

function UnknownRoute() {
  const signedIn = useSession((s) => s.token !== null);
  return <Navigate to={signedIn ? paths.home : paths.login} replace />;
}

export function App() {
  return (
    <HashRouter>
      <NavigatorBridge />
      <TitleSync />
      <CallReturnBar />
      <DeskShortcuts />
      <Routes>
        {appRoutes.map(({ path, page: Page, auth }) => (
          <Route
            key={path}
            path={path}
            element={
              auth ? (
                <RequireAuth>
                  <Page />
                </RequireAuth>
              ) : (
                <Page />
              )
            }
          />
        ))}
        <Route path="*" element={<UnknownRoute />} />
      </Routes>
    </HashRouter>
  );
}
