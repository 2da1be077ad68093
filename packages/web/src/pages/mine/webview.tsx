import { ExclamationTriangleOutline, LinkOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Page } from '../../components/Page';
import { frameSandbox, safeWebUrl } from '../../lib/url';

/**
 * In-app browser for `?src=` (or `?url=`, as the scan page opens a scanned address); anything but
 * http/https is refused (no javascript:, data:, file:). A site that refuses to be framed shows
 * Chromium's error page, which the app cannot detect across origins, so a line above the page
 * always offers to open it in the browser.
 */
export default function WebviewPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const src = params.get('src') ?? params.get('url');
  const url = safeWebUrl(src);

  if (!url) {
    return (
      <Page title={t('routes.webview')}>
        <div className="notice" role="alert">
          <ExclamationTriangleOutline className="notice-icon" aria-hidden="true" />
          <h2>{src ? t('webview.refused') : t('webview.missing')}</h2>
          {src && <p>{t('webview.refusedDesc')}</p>}
          {src && (
            <p>
              <code>{src}</code>
            </p>
          )}
        </div>
      </Page>
    );
  }

  return (
    <Page
      title={url.host}
      className="webview"
      right={
        <a
          className="navbar-action"
          href={url.href}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('webview.open')}
        >
          <LinkOutline aria-hidden="true" />
        </a>
      }
    >
      {/* Whether a site refused to be framed cannot be read from here: the way out is always shown. */}
      <p className="webview-hint">
        {t('webview.blankHint')}{' '}
        <a href={url.href} target="_blank" rel="noopener noreferrer">
          {t('webview.openOutside')}
        </a>
      </p>
      <iframe
        className="webview-frame"
        src={url.href}
        title={t('webview.frameTitle', { host: url.host })}
        sandbox={frameSandbox(url, window.location.origin)}
        referrerPolicy="no-referrer"
      />
    </Page>
  );
}
