import { MOMENT_IMAGES_MAX, type MomentPost, type UploadResult } from '@sparrow/protocol';
import {
  AddOutline,
  CheckOutline,
  CloseOutline,
  EnvironmentOutline,
  RedoOutline,
  RightOutline,
} from 'antd-mobile-icons';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { momentPaths } from '../../nav/paths';
import { Page } from '../../components/Page';
import { FriendPicker } from '../../components/moments/FriendPicker';
import '../../components/moments/moments.css';
import { randomUuid } from '../../lib/ids';

const LocationPicker = lazy(() => import('../../components/location/LocationPicker'));

type Place = NonNullable<MomentPost['location']>;

interface Picked {
  key: string;
  file: File;
  preview: string;
  state: 'uploading' | 'done' | 'failed';
  /** Share of the picture's bytes sent, 0–1. */
  progress: number;
  fileId?: number;
}

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
  const [pics, setPics] = useState<Picked[]>([]);
  const [visibility, setVisibility] = useState<number>(1);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set());
  const [place, setPlace] = useState<Place | null>(null);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const previews = useRef(new Set<string>());

  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  const patch = (key: string, change: Partial<Picked>) =>
    setPics((p) => p.map((x) => (x.key === key ? { ...x, ...change } : x)));

  const upload = async (file: File, key: string) => {
    patch(key, { state: 'uploading', progress: 0 });
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const up = (await api.uploadFile(form, {
        silent: true,
        onUploadProgress: (loaded, total) => total > 0 && patch(key, { progress: loaded / total }),
      })) as UploadResult;
      patch(key, { state: 'done', progress: 1, fileId: up.file_id });
    } catch {
      patch(key, { state: 'failed' });
    }
  };

  const pick = (files: FileList | null) => {
    if (!files) return;
    const room = MOMENT_IMAGES_MAX - pics.length;
    const added: Picked[] = [...files].slice(0, room).map((file) => {
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      return { key: randomUuid(), file, preview, state: 'uploading', progress: 0 };
    });
    setPics((p) => [...p, ...added]);
    for (const a of added) void upload(a.file, a.key);
  };

  const uploading = pics.some((p) => p.state === 'uploading');
  const ready = pics.filter((p) => p.state === 'done');
  const needsPeople = visibility === 3 || visibility === 4;
  const canPost =
    !busy && !uploading && (text.trim() !== '' || ready.length > 0) && (visibility !== 3 || chosen.size > 0);

  const publish = async () => {
    setBusy(true);
    try {
      await api.momentsPublish(
        {
          id: clientId,
          content: text,
          file_ids: ready.map((p) => p.fileId!),
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
        <ul className="moment-grid moment-grid-3 moment-picks" aria-label={t('moments.pictures')}>
          {pics.map((p, i) => (
            <li key={p.key} className={`moment-image moment-pick-${p.state}`}>
              <img src={p.preview} alt={t('moments.pictureN', { n: i + 1 })} />
              {p.state === 'uploading' && (
                <span className="moment-pick-state">
                  <progress
                    className="moment-pick-progress"
                    max={1}
                    value={p.progress}
                    aria-label={t('moments.uploadingN', { n: i + 1 })}
                  />
                  <span aria-hidden="true">
                    {t('moments.uploadPercent', { percent: Math.round(p.progress * 100) })}
                  </span>
                </span>
              )}
              {p.state === 'failed' && (
                <button
                  type="button"
                  className="moment-pick-state moment-pick-retry"
                  onClick={() => void upload(p.file, p.key)}
                  aria-label={t('moments.retryPicture', { n: i + 1 })}
                >
                  <RedoOutline aria-hidden="true" /> {t('moments.uploadFailed')}
                </button>
              )}
              <button
                type="button"
                className="moment-pick-remove"
                aria-label={t('moments.removePicture', { n: i + 1 })}
                onClick={() => setPics((all) => all.filter((x) => x.key !== p.key))}
              >
                <CloseOutline aria-hidden="true" />
              </button>
            </li>
          ))}
          {pics.length < MOMENT_IMAGES_MAX && (
            <li className="moment-image moment-pick-add">
              <label>
                <AddOutline aria-hidden="true" />
                <span className="visually-hidden">{t('moments.addPictures')}</span>
                <input
                  type="file"
                  accept="image/*"
                  multiple
                  className="visually-hidden"
                  onChange={(e) => {
                    pick(e.target.files);
                    e.target.value = '';
                  }}
                />
              </label>
            </li>
          )}
        </ul>
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
