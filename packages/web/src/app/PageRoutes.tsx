import { Navigate, Route, Routes, useLocation, type Location } from 'react-router';
import { paths } from '../nav/paths';
import { loginPath } from '../nav/return-to';
import { useSession } from '../stores/session';
import { appRoutes } from './routes';

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

function UnknownRoute() {
  const signedIn = useSession((s) => s.token !== null);
  return <Navigate to={signedIn ? paths.home : paths.login} replace />;
}

/**
 * The page of the route table for the address, or for `location` when given: a pane of the wide
 * layout shows the page of its own address (the chat beside its info panel).
 */
export function PageRoutes({ location }: { location?: Location }) {
  return (
    <Routes location={location}>
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
  );
}
