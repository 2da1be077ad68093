import {
  ACCOUNT_MAX,
  ACCOUNT_MIN,
  CALL_RING_TIMEOUT_MS,
  CODE_LENGTH,
  PASSWORD_MAX,
  PASSWORD_MIN,
  RATE_LIMITS,
} from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/Page';
import type { MessageKey } from '../../i18n/keys';

const SECTIONS = [
  'register',
  'login',
  'profile',
  'security',
  'language',
  'settings',
  'calls',
  'offline',
  'update',
] as const;

/** Help: how to register, log in, edit the profile, keep the account safe, and more. */
export default function DocPage() {
  const { t } = useTranslation();
  const values = {
    accountMin: ACCOUNT_MIN,
    accountMax: ACCOUNT_MAX,
    passwordMin: PASSWORD_MIN,
    passwordMax: PASSWORD_MAX,
    codeLength: CODE_LENGTH,
    maxFailures: RATE_LIMITS.loginFailures.max,
    lockMinutes: RATE_LIMITS.loginFailures.windowS / 60,
    ringSeconds: CALL_RING_TIMEOUT_MS / 1000,
  };
  return (
    <Page title={t('routes.doc')}>
      <div className="doc">
        <p className="doc-intro">{t('doc.intro')}</p>
        {SECTIONS.map((s) => (
          <section key={s} className="doc-section" aria-labelledby={`doc-${s}`}>
            <h2 id={`doc-${s}`}>{t(`doc.${s}Title` as MessageKey)}</h2>
            <p>{t(`doc.${s}Body` as MessageKey, values)}</p>
          </section>
        ))}
      </div>
    </Page>
  );
}
