import { ExclamationTriangleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, qrPaths } from '../../nav/paths';

/** Why a scanned code cannot be opened (expired, forged, gone…), and where to go from there. */
export function LandingProblem({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="notice" role="alert">
      <ExclamationTriangleOutline className="notice-icon" aria-hidden="true" />
      <h2>{t('qr.landing.failed')}</h2>
      <p>{message}</p>
      <div className="actions">
        <Link className="button button-primary" to={qrPaths.scan} replace>
          {t('qr.landing.scanAgain')}
        </Link>
        <Link className="button button-default" to={paths.home} replace>
          {t('qr.landing.home')}
        </Link>
      </div>
    </div>
  );
}
