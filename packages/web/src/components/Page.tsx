import type { ReactNode } from 'react';
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

/** A screen: the navigation bar, then the page's main landmark. */
export function Page({ title, titleSuffix, back, onBack, right, children, className, footer }: Props) {
  return (
    <div className={`page${className ? ` ${className}` : ''}`}>
      <NavBar title={title} titleSuffix={titleSuffix} back={back} onBack={onBack} right={right} />
      <main id="main" className="page-body">
        {children}
      </main>
      {footer}
    </div>
  );
}
