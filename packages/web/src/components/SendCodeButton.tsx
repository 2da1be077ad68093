import { CODE_RESEND_MS } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** Sends the code; resolves true when it was sent, which starts the resend countdown. */
  onSend: () => Promise<boolean>;
  disabled?: boolean;
}

/** "Get code" with the server's resend interval counted down on the button. */
export function SendCodeButton({ onSend, disabled }: Props) {
  const { t } = useTranslation();
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [seconds]);

  const handleClick = async () => {
    setBusy(true);
    try {
      if (await onSend()) {
        const start = Date.now();
        setNow(start);
        setUntil(start + CODE_RESEND_MS);
      }
    } catch {
      // The request layer has shown why (throttled, unknown account…); the button stays ready.
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className="code-button"
      disabled={disabled || busy || seconds > 0}
      onClick={() => void handleClick()}
    >
      {seconds > 0 ? t('common.resendIn', { seconds }) : t('common.sendCode')}
    </button>
  );
}
