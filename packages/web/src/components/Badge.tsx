import type { Badge as BadgeValue } from '../lib/conversation-list';
import './lists.css';

interface Props {
  badge: BadgeValue;
  /** Spoken instead of the number or dot, e.g. "3 unread". Empty when the row already says it. */
  label?: string;
  className?: string;
}

/** The red unread mark: a number, or a dot for muted conversations. */
export function Badge({ badge, label, className }: Props) {
  if (badge.kind === 'none') return null;
  const cls = `badge ${badge.kind === 'dot' ? 'badge-dot' : 'badge-count'}${className ? ` ${className}` : ''}`;
  return (
    <span className={cls} aria-hidden={label ? undefined : true}>
      {badge.kind === 'count' && <span aria-hidden={label ? true : undefined}>{badge.text}</span>}
      {label && <span className="visually-hidden">{label}</span>}
    </span>
  );
}
