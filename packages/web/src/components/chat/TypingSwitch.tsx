import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { session, useSession } from '../../stores/session';
import { typing } from '../../stores/typing';
import { SwitchCell } from '../Cell';

/** 发送"正在输入"状态: off, no one sees me typing and I see no one typing. */
export function TypingSwitch() {
  const { t } = useTranslation();
  const on = useSession((s) => s.user?.typing !== 0);
  const handleChange = async (next: boolean) => {
    try {
      session.setUser(await api.updateUserInfo({ typing: next ? 1 : 0 }));
      if (!next) typing.clear();
    } catch {
      // The request layer said why; the switch stays as the server has it.
    }
  };
  return (
    <SwitchCell
      title={t('typing.send')}
      checked={on}
      onChange={(next) => void handleChange(next)}
      note={t('typing.sendNote')}
    />
  );
}
