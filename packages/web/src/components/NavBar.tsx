import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBack } from '../app/navigation';

interface Props {
  title: string;
  /** Show the back button (spec §2 back rules). */
  back?: boolean;
  /** Replaces the default back behaviour, e.g. to leave an edit view. */
  onBack?: () => void;
  right?: ReactNode;
}

export function NavBar({ title, back = true, onBack, right }: Props) {
  const { t } = useTranslation();
  const goBack = useBack();
  return (
    <header className="navbar">
      <div className="navbar-side">
        {back && (
          <button type="button" className="navbar-back" aria-label={t('common.back')} onClick={onBack ?? goBack}>
            <LeftOutline aria-hidden="true" />
          </button>
        )}
      </div>
      <h1 className="navbar-title">{title}</h1>
      <div className="navbar-side navbar-right">{right}</div>
    </header>
  );
}
