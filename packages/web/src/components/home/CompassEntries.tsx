import { isMomentsEntry as isMoments, type GlobalConfig } from '@sparrow/protocol';
import { AppOutline, GlobalOutline, PictureOutline } from 'antd-mobile-icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { badgeText, contactKey } from '../../lib/conversation-list';
import { paths, withQuery } from '../../nav/paths';
import { useContacts } from '../../stores/contacts';
import { useConfig } from '../../stores/config';
import { moments, useMoments } from '../../stores/moments';
import { Avatar } from '../Avatar';
import { Badge } from '../Badge';
import { Cell, CellGroup } from '../Cell';
import './compass.css';

type Item = GlobalConfig['compass']['list'][number];

/** Whether Discover is on and lists Moments. */
export const hasMoments = (compass: GlobalConfig['compass'] | undefined): boolean =>
  compass?.status === 1 && compass.list.some(isMoments);

/** Where an entry goes: an in-app route (type 1), or a web page in the in-app browser (type 2). */
const target = (item: Item) => (item.type === 1 ? item.url : withQuery(paths.webview, { url: item.url }));

/**
 * Discover's entries from `globalConfig.compass` (operators edit the list; `updateConfig` moves
 * every client): Moments first, with the newest poster's avatar and the count of new notices.
 */
export function CompassEntries() {
  const { t } = useTranslation();
  const compass = useConfig((s) => s.config?.compass);
  const count = useMoments((s) => s.count);
  const poster = useMoments((s) => s.poster);
  const avatar = useMoments((s) => s.avatar);
  // A friend's face without a picture of their own is drawn from their name, as everywhere else.
  const posterName = useContacts((s) => (poster > 0 ? (s.rows[contactKey(poster)]?.displayName ?? '') : ''));
  useEffect(() => {
    void moments.refresh();
  }, []);
  if (!compass || compass.status !== 1 || compass.list.length === 0) return null;
  const items = [...compass.list.filter(isMoments), ...compass.list.filter((i) => !isMoments(i))];
  const title = (item: Item) => (isMoments(item) ? t('moments.entry') : item.name);
  const icon = (item: Item) =>
    isMoments(item) ? (
      <PictureOutline />
    ) : item.icon.startsWith('http') || item.icon.startsWith('/') ? (
      <img src={item.icon} alt="" className="compass-icon" />
    ) : item.type === 2 ? (
      <GlobalOutline />
    ) : (
      <AppOutline />
    );
  const mark = (item: Item) =>
    isMoments(item) && (poster > 0 || count > 0) ? (
      <span className="compass-mark">
        {poster > 0 && (avatar || posterName) && <Avatar src={avatar} name={posterName} alt="" size={28} />}
        {count > 0 ? (
          <Badge badge={{ kind: 'count', text: badgeText(count) }} label={t('moments.newNotices', { count })} />
        ) : (
          <Badge badge={{ kind: 'dot' }} label={t('moments.newPosts')} />
        )}
      </span>
    ) : undefined;

  if (compass.mode === 2)
    return (
      <ul className="compass-grid">
        {items.map((item) => (
          <li key={`${item.type}:${item.url}`}>
            <Link to={target(item)} className="compass-tile">
              <span className="compass-tile-icon" aria-hidden="true">
                {icon(item)}
              </span>
              {title(item)}
              {mark(item)}
            </Link>
          </li>
        ))}
      </ul>
    );
  return (
    <CellGroup>
      {items.map((item) => (
        <Cell
          key={`${item.type}:${item.url}`}
          icon={icon(item)}
          title={title(item)}
          to={target(item)}
          extra={mark(item)}
        />
      ))}
    </CellGroup>
  );
}
