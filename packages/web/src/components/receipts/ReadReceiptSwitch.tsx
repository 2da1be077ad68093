import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useConfig } from '../../stores/config';
import { receipts } from '../../stores/read-receipts';
import { session, useSession } from '../../stores/session';
import { SwitchCell } from '../Cell';

/**
 * 发送已读回执: off, my reads in groups count as unread to their senders and I see no one's receipts.
 * In an organisation that makes receipts mandatory (runMode 1) the switch is shown on and disabled,
 * with why it cannot be turned off.
 */
export function ReadReceiptSwitch() {
  const { t } = useTranslation();
  const mandatory = useConfig((s) => s.config?.sysInfo.runMode === 1);
  const on = useSession((s) => s.user?.read_receipt !== 0);
  const handleChange = async (next: boolean) => {
    try {
      session.setUser(await api.updateUserInfo({ read_receipt: next ? 1 : 0 }));
      // What I see of others' receipts changed with it.
      receipts.clear();
    } catch {
      // The request layer said why; the switch stays as the server has it.
    }
  };
  return (
    <SwitchCell
      title={t('receipts.send')}
      checked={mandatory || on}
      onChange={(next) => void handleChange(next)}
      disabled={mandatory}
      note={mandatory ? t('receipts.mandatory') : t('receipts.sendNote')}
    />
  );
}
