import type { LoginResult } from '@sparrow/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { passkeysAvailable, signWithPasskey } from '../../lib/passkeys';

/**
 * 使用通行密钥登录: signing in with a passkey the browser holds for this site and no password (a
 * passkey counts as both factors). Not shown where the browser has no WebAuthn.
 */
export function PasskeyLogin({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (!passkeysAvailable()) return null;

  const handleClick = async () => {
    setBusy(true);
    try {
      const options = await api.passkeyLoginOptions({}, { quiet: true });
      let credential;
      try {
        credential = await signWithPasskey(options);
      } catch {
        feedback.toast(t('login.passkeyCancelled'));
        return;
      }
      onSignedIn(await api.passkeyLogin({ credential }, { loading: true, quiet: true }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="button button-link" disabled={busy} onClick={() => void handleClick()}>
      {t('login.usePasskey')}
    </button>
  );
}

/** The second step answered with a passkey of the ticket's user (两步验证 by 通行密钥). */
export function PasskeyTwoStep({ ticket, onSignedIn }: { ticket: string; onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (!passkeysAvailable()) return null;

  const handleClick = async () => {
    setBusy(true);
    try {
      const options = await api.passkeyLoginOptions({ ticket }, { quiet: true });
      let passkey;
      try {
        passkey = await signWithPasskey(options);
      } catch {
        feedback.toast(t('login.passkeyCancelled'));
        return;
      }
      onSignedIn(await api.loginTwoStep({ ticket, passkey }, { loading: true, quiet: true }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="button button-link" disabled={busy} onClick={() => void handleClick()}>
      {t('login.passkeyAnswer')}
    </button>
  );
}
