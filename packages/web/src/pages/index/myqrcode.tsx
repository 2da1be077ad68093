import type { UserPreview } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, type RequestOptions } from '../../api';
import { AddFriendForm } from '../../components/AddFriendForm';
import { Avatar } from '../../components/Avatar';
import { DelayedSpinner } from '../../components/DelayedSpinner';
import { Page } from '../../components/Page';
import { LandingProblem } from '../../components/qr/LandingProblem';
import { useQrPreview } from '../../components/qr/use-preview';
import { chatPath, qrPaths } from '../../nav/paths';
import { useSession } from '../../stores/session';
import '../../components/qr/qr.css';
import '../pages.css';

const loadPerson = (token: string, opts: RequestOptions) => api.userInfoqq({ token }, opts);

function PersonCard({ person, token }: { person: UserPreview; token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useSession((s) => s.user?.user_id);
  return (
    <section className="qr-landing" aria-label={person.displayName}>
      <Avatar src={person.avatar} name={person.displayName} alt="" size={72} />
      <h2 className="qr-landing-name">{person.displayName}</h2>
      <p className="qr-landing-detail">
        {t('qr.person.motto')}: {person.motto || t('qr.person.noMotto')}
      </p>
      {person.user_id === me ? (
        <>
          <p className="qr-landing-detail">{t('qr.person.self')}</p>
          <Link className="button button-default" to={qrPaths.mycode} replace>
            {t('qr.person.viewMine')}
          </Link>
        </>
      ) : person.is_friend ? (
        <button
          type="button"
          className="button button-primary"
          onClick={() => void navigate(chatPath(String(person.user_id)), { replace: true })}
        >
          {t('qr.person.sendMessage')}
        </button>
      ) : (
        <AddFriendForm userId={person.user_id} token={token} />
      )}
    </section>
  );
}

/**
 * 用户分享 (`/pages/index/myqrcode?token=`): where a person's scanned code lands: who they are,
 * and "add friend" with a note, or "send message" when we are friends already.
 */
export default function PersonLandingPage() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token');
  const { preview } = useQrPreview(token, loadPerson);
  return (
    <Page title={t('qr.routes.myqrcode')}>
      {preview.status === 'loading' && <DelayedSpinner />}
      {preview.status === 'error' && <LandingProblem message={preview.message} />}
      {preview.status === 'ok' && token && <PersonCard person={preview.data} token={token} />}
    </Page>
  );
}
