import type { ReactNode } from 'react';

interface Props {
  icon: ReactNode;
  title: string;
  description: string;
  children?: ReactNode;
}

/** What a list shows while it has nothing in it yet. */
export function EmptyState({ icon, title, description, children }: Props) {
  return (
    <div className="empty-state">
      <div className="empty-state-icon" aria-hidden="true">
        {icon}
      </div>
      <h2 className="empty-state-title">{title}</h2>
      <p className="empty-state-desc">{description}</p>
      {children}
    </div>
  );
}
