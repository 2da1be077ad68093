import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { clearHistory } from '../../chat/clear-history';
import { isGroupOf } from '../../chat/registry';
import { contactIdOf } from '../../lib/conversation-list';
import { filesPath, paths, withQuery } from '../../nav/paths';
import { contacts, useContacts } from '../../stores/contacts';
import { ChatBackgroundCell } from '../background/ChatBackgroundCell';
import { Cell, CellGroup, SwitchCell } from '../Cell';
import { feedback } from '../feedback';

/**
 * What chat info offers for any conversation, a friend's or a group's: finding something in the
 * history, its files, muting and pinning it, its background, and clearing it on this device.
 */
export function ChatSettingsCells({ chatKey: key }: { chatKey: string }) {
  const { t } = useTranslation();
  const contact = useContacts((s) => s.rows[key]);
  const body = { id: contactIdOf(key), is_group: isGroupOf(key) };

  const toggle = async (field: 'is_top' | 'is_notice', value: 0 | 1) => {
    const before = contact?.[field];
    contacts.patch(key, { [field]: value });
    try {
      if (field === 'is_top') await api.setChatTop({ ...body, is_top: value }, { quiet: true });
      else await api.isNotice({ ...body, is_notice: value }, { quiet: true });
    } catch {
      if (before !== undefined) contacts.patch(key, { [field]: before });
    }
  };

  const handleClear = async () => {
    const ok = await feedback
      .confirm({
        content: t('detail.clearConfirm'),
        confirmText: t('detail.clear'),
        cancelText: t('common.cancel'),
        danger: true,
      })
      .catch(() => false);
    if (!ok) return;
    try {
      await clearHistory(key);
      feedback.toast(t('detail.cleared'));
    } catch {
      // The request layer said why.
    }
  };

  return (
    <>
      <CellGroup>
        <Cell title={t('detail.searchHistory')} to={withQuery(paths.record, { id: key })} />
        <Cell title={t('media.files.entry')} to={filesPath()} />
      </CellGroup>
      <CellGroup>
        <SwitchCell
          title={t('detail.mute')}
          checked={contact?.is_notice === 0}
          onChange={(on) => void toggle('is_notice', on ? 0 : 1)}
        />
        <SwitchCell
          title={t('detail.pin')}
          checked={contact?.is_top === 1}
          onChange={(on) => void toggle('is_top', on ? 1 : 0)}
        />
      </CellGroup>
      <CellGroup>
        <ChatBackgroundCell contactId={key} />
      </CellGroup>
      <div className="actions">
        <button type="button" className="button button-danger" onClick={() => void handleClear()}>
          {t('detail.clear')}
        </button>
      </div>
    </>
  );
}
