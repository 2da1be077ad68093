import { DeleteOutline, SendOutline, StarOutline, UnorderedListOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './record.css';

interface Props {
  /** How many messages are chosen: every action waits for one. */
  count: number;
  onForwardEach(): void;
  onForwardMerge(): void;
  onFavorite(): void;
  onDelete(): void;
}

/** The bar that takes the composer's place in multi-select (多选): 逐条转发, 合并转发, 收藏, 删除. */
export function SelectionBar({ count, onForwardEach, onForwardMerge, onFavorite, onDelete }: Props) {
  const { t } = useTranslation();
  const none = count === 0;
  const action = (label: string, icon: ReactNode, onClick: () => void, danger = false) => (
    <button
      type="button"
      className={`selection-action${danger ? ' selection-action-danger' : ''}`}
      disabled={none}
      onClick={onClick}
    >
      {icon}
      <span>{label}</span>
    </button>
  );
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('multiSelect.actions')}>
      {action(t('multiSelect.forwardEach'), <SendOutline aria-hidden="true" />, onForwardEach)}
      {action(t('multiSelect.forwardMerge'), <UnorderedListOutline aria-hidden="true" />, onForwardMerge)}
      {action(t('multiSelect.favorite'), <StarOutline aria-hidden="true" />, onFavorite)}
      {action(t('multiSelect.delete'), <DeleteOutline aria-hidden="true" />, onDelete, true)}
    </div>
  );
}
