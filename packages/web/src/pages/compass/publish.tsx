import { MOMENT_IMAGES_MAX, type MomentPost } from '@sparrow/protocol';
import { CheckOutline, CloseOutline, EnvironmentOutline, RightOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { momentPaths } from '../../nav/paths';
import { Page } from '../../components/Page';
import { FriendPicker } from '../../components/moments/FriendPicker';
import { PicturePicks, usePicturePicks } from '../../components/moments/PicturePicks';
import '../../components/moments/moments.css';
import { randomUuid } from '../../lib/ids';

const LocationPicker = lazy(() => import('../../components/location/LocationPicker'));

type Place = NonNullable<MomentPost['location']>;

const VISIBILITIES = [
  [1, 'moments.visibilityFriends'],
  [3, 'moments.visibilityOnly'],
  [4, 'moments.visibilityExcept'],
  [2, 'moments.visibilityPrivate'],
] as const;

/** 发表动态 (`/pages/compass/publish`): text, up to nine pictures, and who may see it. */
export default function PublishPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [clientId] = useState(() => randomUuid());
  const [text, setText] = useState('');
  const picks = usePicturePicks(MOMENT_IMAGES_MAX);
  const [visibility, setVisibility] = useState<number>(1);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set());
  const [place, setPlace] = useState<Place | null>(null);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const { uploading, fileIds } = picks;
  const needsPeople = visibility === 3 || visibility === 4;
  const canPost =
    !busy && !uploading && (text.trim() !== '' || fileIds.length > 0) && (visibility !== 3 || chosen.size > 0);

  const publish = async () => {
    setBusy(true);
    try {
      await api.momentsPublish(
        {
          id: clientId,
          content: text,
          file_ids: fileIds,
          visibility,
          user_ids: needsPeople ? [...chosen] : [],
          ...(place && { location: place }),
        },
        { loading: true },
      );
      void navigate(momentPaths.moments, { replace: true });
    } catch {
      setBusy(false);
    }
  };

  return (
    <Page
      title={t('routes.momentsPublish')}
      right={
        <button
          type="button"
          className="button button-primary moment-post-button"
          disabled={!canPost}
          onClick={() => void publish()}
        >
          {t('moments.post')}
        </button>
      }
    >
      <div className="moment-publish">
        <textarea
          className="moment-publish-text"
          value={text}
          maxLength={2000}
          rows={4}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('moments.whatsNew')}
          aria-label={t('moments.whatsNew')}
        />
        <PicturePicks picks={picks} aria-label={t('moments.pictures')} />
        {place ? (
          <div className="moment-place">
            <button type="button" className="moment-place-pick" onClick={() => setPicking(true)}>
              <EnvironmentOutline aria-hidden="true" />
              <span className="moment-place-name">
                <span className="visually-hidden">{t('moments.location')}：</span>
                {place.name}
              </span>
            </button>
            <button
              type="button"
              className="moment-place-remove"
              aria-label={t('moments.removeLocation')}
              onClick={() => setPlace(null)}
            >
              <CloseOutline aria-hidden="true" />
            </button>
          </div>
        ) : (
          <button type="button" className="moment-place moment-place-pick" onClick={() => setPicking(true)}>
            <EnvironmentOutline aria-hidden="true" />
            <span className="moment-place-name">{t('moments.location')}</span>
            <RightOutline aria-hidden="true" />
          </button>
        )}
        {picking && (
          <Suspense fallback={<p className="moment-end">{t('common.loading')}</p>}>
            <LocationPicker
              confirmLabel={t('common.confirm')}
              onClose={() => setPicking(false)}
              onSend={(p) => {
                setPlace({ name: p.name, address: p.address, latitude: p.latitude, longitude: p.longitude });
                setPicking(false);
              }}
            />
          </Suspense>
        )}
        <fieldset className="moment-visibility cell-group option-list">
          <legend>{t('moments.whoCanSee')}</legend>
          <ul className="cells">
            {VISIBILITIES.map(([v, label]) => (
              <li key={v}>
                <label className="cell">
                  <input type="radio" name="visibility" checked={visibility === v} onChange={() => setVisibility(v)} />
                  <span className="cell-title">{t(label)}</span>
                  {visibility === v && <CheckOutline className="cell-check" aria-hidden="true" />}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {needsPeople && (
          <FriendPicker
            legend={visibility === 3 ? t('moments.pickOnly') : t('moments.pickExcept')}
            chosen={chosen}
            onChange={setChosen}
          />
        )}
      </div>
    </Page>
  );
}
