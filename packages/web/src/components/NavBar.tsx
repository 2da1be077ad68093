import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBack } from '../nav/navigation';

interface Props {
  title: string;
  /**
   * Said after the title and never cut off with it, e.g. a group's member count: a long name is
   * shortened, its count stays.
   */
  titleSuffix?: string;
  /** Show the back button (docs/product.md §2 back rules). */
  back?: boolean;
  /** Replaces the default back behaviour, e.g. to leave an edit view. */
  onBack?: () => void;
  right?: ReactNode;
}

export function NavBar({ title, titleSuffix, back = true, onBack, right }: Props) {
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
      {titleSuffix ? (
        <h1 className="navbar-title navbar-title-split" aria-label={`${title}${titleSuffix}`}>
          <span className="navbar-title-text">{title}</span>
          <span className="navbar-title-suffix">{titleSuffix}</span>
        </h1>
      ) : (
        <h1 className="navbar-title">{title}</h1>
      )}
      <div className="navbar-side navbar-right">{right}</div>
    </header>
  );
}
