import { GroupRoles, type Contact } from '@sparrow/protocol';
import { TeamFill } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api';
import { ContactAvatar } from '../../components/ContactAvatar';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { contactKey } from '../../lib/conversation-list';
import { useParamChoice } from '../../lib/use-param-choice';
import { chatPath } from '../../nav/paths';
import '../../components/lists.css';
import '../pages.css';

/** The tabs, each the role getAllGroup lists my groups by. */
const ROLES = { created: GroupRoles.Owner, managed: GroupRoles.Admin, joined: GroupRoles.Member } as const;
type Which = keyof typeof ROLES;
const WHICH: readonly Which[] = ['created', 'managed', 'joined'];

/** Group chat list (docs/product.md §2 `/pages/contacts/group`): the groups I created, manage, or joined. */
export default function GroupListPage() {
  const { t } = useTranslation();
  const [which, setWhich] = useParamChoice<Which>('role', WHICH);
  const [groups, setGroups] = useState<Contact[] | null>(null);

  useEffect(() => {
    let live = true;
    setGroups(null);
    api.getAllGroup({ role: ROLES[which] }, { silent: true }).then(
      (list) => live && setGroups(list),
      () => live && setGroups([]),
    );
    return () => {
      live = false;
    };
  }, [which]);

  return (
    <Page title={t('routes.groupList')}>
      <fieldset className="segmented">
        <legend>{t('groups.which')}</legend>
        {WHICH.map((w) => (
          <label key={w}>
            <input type="radio" name="role" checked={which === w} onChange={() => setWhich(w)} />
            {t(`groups.${w}`)}
          </label>
        ))}
      </fieldset>
      {groups === null ? (
        <div className="page-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="visually-hidden">{t('common.loading')}</span>
        </div>
      ) : groups.length === 0 ? (
        <EmptyState icon={<TeamFill />} title={t(`groups.empty.${which}`)} description={t('groups.emptyDesc')} />
      ) : (
        <ul className="cells">
          {groups.map((g) => (
            <li key={String(g.id)}>
              <Link className="contact-row" to={chatPath(contactKey(g.id))}>
                <ContactAvatar contact={g} size={40} />
                <span className="contact-name">{g.displayName}</span>
                {g.member_count !== undefined && (
                  <span className="contact-extra">{t('groups.members', { count: g.member_count })}</span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
