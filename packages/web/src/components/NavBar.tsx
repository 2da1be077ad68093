import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBack } from '../nav/navigation';
import { usePane } from './desk/pane';

interface Props {
  title: string;
  /**
   * Said after the title and never cut off with it, e.g. a group's member count: a long name is
   * shortened, its count stays.
   */
  titleSuffix?: string;
  /** A small line under the title, e.g. a private chat's 在线 / 最近在线 or the person's status. */
  subtitle?: string | null | undefined;
  /**
   * The subtitle changes while the page is open (someone typing): its line is kept, empty or not,
   * as a polite live status, so that screen readers say each change.
   */
  live?: boolean;
  /** Show the back button (docs/product.md §2 back rules). */
  back?: boolean;
  /** Replaces the default back behaviour, e.g. to leave an edit view. */
  onBack?: () => void;
  right?: ReactNode;
}

export function NavBar({ title, titleSuffix, subtitle, live = false, back = true, onBack, right }: Props) {
  const { t } = useTranslation();
  const goBack = useBack();
  const pane = usePane();
  const paneBack = pane?.onBack;
  const heading = titleSuffix ? (
    <h1 className="navbar-title navbar-title-split" aria-label={`${title}${titleSuffix}`}>
      <span className="navbar-title-text">{title}</span>
      <span className="navbar-title-suffix">{titleSuffix}</span>
    </h1>
  ) : (
    <h1 className="navbar-title">{title}</h1>
  );
  // At a desk the middle page's bar is the one banner: the list's beside it is only its column's heading.
  return (
    <header className="navbar" role={pane?.pane === 'list' ? 'none' : undefined}>
      <div className="navbar-side">
        {back && (
          <button
            type="button"
            className="navbar-back"
            aria-label={t('common.back')}
            onClick={onBack ?? paneBack ?? goBack}
          >
            <LeftOutline aria-hidden="true" />
          </button>
        )}
      </div>
      {subtitle || live ? (
        <div className="navbar-heading">
          {heading}
          <p className="navbar-subtitle" {...(live && { role: 'status', 'aria-live': 'polite' as const })}>
            {subtitle}
          </p>
        </div>
      ) : (
        heading
      )}
      <div className="navbar-side navbar-right">{right}</div>
    </header>
  );
}
