import type { ReactNode } from 'react';
import { usePane } from './desk/pane';
import { NavBar } from './NavBar';

interface Props {
  title: string;
  /** After the title, never cut off with it (a group's member count). */
  titleSuffix?: string;
  back?: boolean;
  onBack?: () => void;
  right?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Rendered after <main>, e.g. the tab bar. */
  footer?: ReactNode;
}

/**
 * A screen: the navigation bar, then the page's main landmark. In the wide layout only the middle
 * pane's page is the main one; the list and the right panel are regions named by their title.
 */
export function Page({ title, titleSuffix, back, onBack, right, children, className, footer }: Props) {
  const pane = usePane()?.pane;
  return (
    <div className={`page${className ? ` ${className}` : ''}`}>
      <NavBar title={title} titleSuffix={titleSuffix} back={back} onBack={onBack} right={right} />
      {pane === 'list' || pane === 'panel' ? (
        <section className="page-body" aria-label={title}>
          {children}
        </section>
      ) : (
        <main id="main" className="page-body">
          {children}
        </main>
      )}
      {footer}
    </div>
  );
}
