import type { MessageOf } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, withQuery } from '../../nav/paths';
import { Avatar } from '../Avatar';
import { str } from './media-fields';
import './media.css';

/** A contact card: the person's picture and name; a tap opens their profile. */
export function ContactCardBubble({ message }: { message: MessageOf<'contact'> }) {
  const { t } = useTranslation();
  const { id, avatar } = message.extends;
  const name = message.extends.displayName || str(message.extends.realname);
  const body = (
    <>
      <span className="card-main">
        <Avatar src={avatar} name={name} alt="" size={44} />
        <span className="card-name">{name}</span>
      </span>
      <span className="card-foot">{t('chat.contactCard')}</span>
    </>
  );
  if (!id) return <span className="card">{body}</span>;
  return (
    <Link className="card" to={withQuery(paths.contactDetail, { id })} aria-label={t('media.card.open', { name })}>
      {body}
    </Link>
  );
}
