import type { GroupPreview } from '@sparrow/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api, type RequestOptions } from '../../api';
import { Avatar } from '../../components/Avatar';
import { DelayedSpinner } from '../../components/DelayedSpinner';
import { Page } from '../../components/Page';
import { LandingProblem } from '../../components/qr/LandingProblem';
import { useQrPreview } from '../../components/qr/use-preview';
import { chatPath } from '../../nav/paths';
import { contacts } from '../../stores/contacts';
import '../../components/qr/qr.css';

const loadGroup = (token: string, opts: RequestOptions) => api.groupInfoqq({ token }, opts);

function GroupCard({ group, token, onRefused }: { group: GroupPreview; token: string; onRefused: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const openChat = () => void navigate(chatPath(group.group_id), { replace: true });

  const handleJoin = async () => {
    setBusy(true);
    try {
      const contact = await api.joinGroup({ group_id: group.group_id, token }, { loading: true, quiet: true });
      contacts.upsert(contact);
      openChat();
    } catch {
      // The request layer said why (invite off, full…); what the code says now may have changed.
      setBusy(false);
      onRefused();
    }
  };

  return (
    <section className="qr-landing" aria-label={group.displayName}>
      <Avatar src={group.avatar} name={group.displayName} alt="" size={72} />
      <h2 className="qr-landing-name">{group.displayName}</h2>
      <p className="qr-landing-detail">{t('qr.card.members', { count: group.member_count })}</p>
      {group.isJoin ? (
        <>
          <p className="qr-landing-detail">{t('qr.group.member')}</p>
          <button type="button" className="button button-primary" onClick={openChat}>
            {t('qr.group.openChat')}
          </button>
        </>
      ) : (
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void handleJoin()}>
          {t('qr.group.join')}
        </button>
      )}
    </section>
  );
}

/**
 * 群分享 (`/pages/index/qqrcode?token=`): where a group's scanned code lands: its name, picture
 * and size, and "join", or "open chat" for a member; an expired code says so.
 */
export default function GroupLandingPage() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token');
  const { preview, reload } = useQrPreview(token, loadGroup);
  return (
    <Page title={t('qr.routes.qqrcode')}>
      {preview.status === 'loading' && <DelayedSpinner />}
      {preview.status === 'error' && <LandingProblem message={preview.message} />}
      {preview.status === 'ok' && token && <GroupCard group={preview.data} token={token} onRefused={reload} />}
    </Page>
  );
}
