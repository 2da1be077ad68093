import { AddCircleOutline, ChatAddOutline, ScanningOutline, UserAddOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths, qrPaths, withQuery } from '../../nav/paths';
import { useConfig } from '../../stores/config';
import { ActionMenu, type MenuAction } from '../ActionMenu';

/** The "+" of the Messages and Contacts tabs: start a group chat, add a friend, scan a code. */
export function AddMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const groupChat = useConfig((s) => (s.config?.chatInfo.groupChat ?? 1) === 1);
  const [anchor, setAnchor] = useState<{ x: number; y: number } | null>(null);
  const actions: MenuAction[] = [
    ...(groupChat
      ? [
          {
            key: 'group',
            label: t('home.startGroup'),
            icon: <ChatAddOutline />,
            onSelect: () => void navigate(withQuery(paths.userSelection, { mode: 'group' })),
          },
        ]
      : []),
    {
      key: 'friend',
      label: t('home.addFriend'),
      icon: <UserAddOutline />,
      onSelect: () => void navigate(paths.contactSearch),
    },
    {
      key: 'scan',
      label: t('qr.entry.scan'),
      icon: <ScanningOutline />,
      onSelect: () => void navigate(qrPaths.scan),
    },
  ];
  return (
    <>
      <button
        type="button"
        className="navbar-back navbar-icon"
        aria-label={t('home.more')}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setAnchor({ x: r.left + r.width / 2, y: r.bottom - 12 });
        }}
      >
        <AddCircleOutline aria-hidden="true" />
      </button>
      {anchor && (
        <ActionMenu
          anchor={anchor}
          actions={actions}
          label={t('home.more')}
          layout="list"
          onClose={() => setAnchor(null)}
        />
      )}
    </>
  );
}
