import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from './feedback';

/** What an action asks before it runs. */
export interface ActionAsk {
  title: string;
  content: string;
  confirmText: string;
}

/**
 * Actions that each delete, end or replace something (remove a robot, reset a token, leave a group):
 * `run` asks first, its confirm button in red, then runs the action with `busy` set, for its buttons
 * to wait. A failure's reason is the request layer's to show.
 */
export function useConfirmedAction(): {
  busy: boolean;
  run: (ask: ActionAsk, action: () => Promise<unknown>) => Promise<void>;
} {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async (ask: ActionAsk, action: () => Promise<unknown>) => {
    const ok = await feedback.confirm({ ...ask, cancelText: t('common.cancel'), danger: true });
    if (!ok) return;
    setBusy(true);
    try {
      await action();
    } catch {
      // The request layer has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
