import { AddOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { BlockCell } from '../../components/BlockCell';
import { ChatSettingsCells } from '../../components/chat/ChatSettingsCells';
import { ContactAvatar } from '../../components/ContactAvatar';
import { Page } from '../../components/Page';
import { isGroupKey, SELF_KEY } from '../../lib/conversation-list';
import { paths, withQuery } from '../../nav/paths';
import { useContacts } from '../../stores/contacts';
import { GroupChatInfo } from './group/info';
import '../../components/lists.css';
import '../pages.css';

/** A private chat's info: the person (and starting a group with them), then the chat's own settings. */
function PrivateChatInfo({ chatKey: key }: { chatKey: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const contact = useContacts((s) => s.rows[key]);
  return (
    <Page title={t('routes.chatDetail')}>
      {key !== SELF_KEY && (
        <section className="member-grid-wrap" aria-label={t('detail.members')}>
          <ul className="member-grid">
            {contact && (
              <li>
                <Link className="member" to={withQuery(paths.contactDetail, { id: key })}>
                  <ContactAvatar contact={contact} size={52} />
                  <span className="member-name">{contact.displayName}</span>
                </Link>
              </li>
            )}
            <li>
              <button
                type="button"
                className="member member-add"
                onClick={() => void navigate(withQuery(paths.userSelection, { mode: 'group', with: key }))}
              >
                <span className="member-add-icon" aria-hidden="true">
                  <AddOutline />
                </span>
                <span className="member-name">{t('detail.startGroup')}</span>
              </button>
            </li>
          </ul>
        </section>
      )}
      {/^\d+$/.test(key) && <BlockCell userId={Number(key)} />}
      <ChatSettingsCells chatKey={key} />
    </Page>
  );
}

/**
 * Chat info (docs/product.md §2 `/pages/message/detail?id=`). A group has one info page, as in WeChat: its
 * members, name, notice and settings with the chat's own (GroupChatInfo).
 */
export default function ChatDetailPage() {
  const [params] = useSearchParams();
  const key = params.get('id') ?? '';
  if (!key) return <Navigate to={paths.home} replace />;
  return isGroupKey(key) ? <GroupChatInfo id={key} /> : <PrivateChatInfo chatKey={key} />;
}
