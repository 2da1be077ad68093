import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  icon: ReactNode;
}

interface Props<K extends string> {
  items: readonly TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
}

/** The bottom tab bar; sizes and colours of spec §9 come from the theme's custom properties. */
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
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
