import { Navigate } from 'react-router';
import { paths } from '../../nav/paths';
import { useSession } from '../../stores/session';
import LoginPage from './login';

/** The entry page (`/`, `/pages/login/index`): a stored token logs in by itself. */
export default function LoginEntry() {
  const signedIn = useSession((s) => s.token !== null);
  return signedIn ? <Navigate to={paths.autoLogin} replace /> : <LoginPage />;
}
