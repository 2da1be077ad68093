import { liveStatus } from '@sparrow/protocol';
import {
  CheckShieldOutline,
  ClockCircleOutline,
  FolderOutline,
  InformationCircleOutline,
  LockOutline,
  PictureOutline,
  QuestionCircleOutline,
  SetOutline,
  SmileOutline,
  StarOutline,
  SystemQRcodeOutline,
  UserOutline,
} from 'antd-mobile-icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api';
import { albumPath, emojiPath, filesPath, managePaths, mediaPaths, paths, qrPaths } from '../../nav/paths';
import { session, useSession } from '../../stores/session';
import { Avatar } from '../Avatar';
import { Cell, CellGroup } from '../Cell';
import { statusText } from '../presence/presence';
import { useNow } from '../../lib/use-now';

/** The Me tab: who I am, and the way to profile, security, settings, about and help (and, for admins, the console). */
export function MeTab() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const now = useNow();
  const status = liveStatus(user?.status, now);

  useEffect(() => {
    // Another device may have changed the profile; the stored copy is shown meanwhile.
    api.checkuser({}, { quiet: true }).then(session.setUser, () => {});
  }, []);

  const name = user?.realname || user?.displayName || user?.account || '';
  return (
    <>
      <Link className="me-card" to={paths.profile} aria-label={`${t('me.profile')}: ${name}`}>
        <Avatar src={user?.avatar} name={name} alt="" size={64} />
        <div className="me-card-text">
          <p className="me-name">{name}</p>
          <p className="me-account">{t('me.account', { account: user?.account ?? '' })}</p>
        </div>
      </Link>
      <CellGroup>
        <Cell icon={<UserOutline />} title={t('me.profile')} to={paths.profile} />
        <Cell
          icon={<ClockCircleOutline />}
          title={t('presence.status')}
          value={status ? statusText(t, status, now) : t('presence.statusNone')}
          to={paths.status}
        />
        <Cell icon={<SystemQRcodeOutline />} title={t('qr.entry.mine')} to={qrPaths.mycode} />
        <Cell icon={<LockOutline />} title={t('me.secure')} to={paths.secure} />
      </CellGroup>
      <CellGroup>
        <Cell icon={<StarOutline />} title={t('favorite.title')} to={mediaPaths.favorites} />
        <Cell icon={<FolderOutline />} title={t('media.files.entry')} to={filesPath()} />
        <Cell icon={<SmileOutline />} title={t('media.sticker.entry')} to={emojiPath()} />
        {user && <Cell icon={<PictureOutline />} title={t('moments.myAlbum')} to={albumPath(user.user_id)} />}
      </CellGroup>
      <CellGroup>
        <Cell icon={<SetOutline />} title={t('me.setting')} to={paths.setting} />
        {user?.role === 1 && <Cell icon={<CheckShieldOutline />} title={t('me.manage')} to={managePaths.console} />}
      </CellGroup>
      <CellGroup>
        <Cell icon={<InformationCircleOutline />} title={t('me.about')} to={paths.about} />
        <Cell icon={<QuestionCircleOutline />} title={t('me.doc')} to={paths.doc} />
      </CellGroup>
    </>
  );
}
