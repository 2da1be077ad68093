import { hasOwnPicture, type Contact } from '@sparrow/protocol';
import { FolderOutline, SoundOutline, TeamFill, UserAddOutline } from 'antd-mobile-icons';
import { useConfig } from '../stores/config';
import { Avatar } from './Avatar';
import './lists.css';

interface Props {
  contact: Pick<Contact, 'id' | 'displayName' | 'avatar' | 'is_group' | 'is_online'>;
  size?: number;
  /** Show the green dot when the person is online. */
  presence?: boolean;
}

/** A contact's picture; the pseudo-contacts get icons of their own, people online a green dot. */
export function ContactAvatar({ contact, size = 48, presence = false }: Props) {
  const onlineShown = useConfig((s) => (s.config?.chatInfo.online ?? 1) === 1);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.55) };
  let face;
  if (contact.id === 'system') {
    face = (
      <span className="avatar avatar-icon avatar-orange" style={style} aria-hidden="true">
        <UserAddOutline />
      </span>
    );
  } else if (contact.id === 'admin_notice') {
    face = (
      <span className="avatar avatar-icon avatar-blue" style={style} aria-hidden="true">
        <SoundOutline />
      </span>
    );
  } else if (contact.id === -1 || contact.is_group === 3) {
    face = (
      <span className="avatar avatar-icon avatar-green" style={style} aria-hidden="true">
        <FolderOutline />
      </span>
    );
  } else if (contact.is_group === 1 && !hasOwnPicture(contact.avatar)) {
    face = (
      <span className="avatar avatar-icon avatar-green" style={style} aria-hidden="true">
        <TeamFill />
      </span>
    );
  } else {
    face = <Avatar src={contact.avatar} name={contact.displayName} alt="" size={size} />;
  }
  return (
    <span className="contact-avatar" style={{ width: size, height: size }}>
      {face}
      {presence && onlineShown && contact.is_group === 0 && contact.is_online === 1 && (
        <span className="online-dot" aria-hidden="true" />
      )}
    </span>
  );
}
