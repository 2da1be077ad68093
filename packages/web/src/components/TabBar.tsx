import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Badge as BadgeValue } from '../lib/conversation-list';
import { Badge } from './Badge';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  icon: ReactNode;
  badge?: BadgeValue;
  /** What the badge means, for screen readers ("3 unread"). */
  badgeLabel?: string;
}

interface Props<K extends string> {
  items: readonly TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
}

/** The bottom tab bar; sizes and colours of docs/product.md §9 come from the theme's custom properties. */
export function TabBar<K extends string>({ items, active, onChange }: Props<K>) {
  const { t } = useTranslation();
  return (
    <nav className="tabbar" aria-label={t('tabs.nav')}>
      <ul className="tabbar-list">
        {items.map((item) => (
          <li key={item.key}>
            <button
              type="button"
              className="tabbar-item"
              aria-current={item.key === active ? 'page' : undefined}
              onClick={() => onChange(item.key)}
            >
              <span className="tabbar-icon" aria-hidden="true">
                {item.icon}
              </span>
              <span className="tabbar-label">{item.label}</span>
              {item.badge && <Badge badge={item.badge} className="tabbar-badge" label={item.badgeLabel} />}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
