import { MOMENT_IMAGES_MAX, type Contact, type UploadResult } from '@sparrow/protocol';
import { AddOutline, CloseOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { momentPaths } from '../../app/moment-paths';
import { Avatar } from '../../components/Avatar';
import { Page } from '../../components/Page';
import '../../components/moments/moments.css';
import { randomUuid } from '../../lib/ids';
import { contacts, useContacts } from '../../stores/contacts';

interface Picked {
  key: string;
  preview: string;
  state: 'uploading' | 'done' | 'failed';
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
  const [busy, setBusy] = useState(false);
  const rows = useContacts((s) => s.rows);
  const friends = useMemo(
    () =>
      Object.values(rows).filter(
        (c): c is Contact & { user_id: number } => c.is_group === 0 && !!c.user_id && c.user_id > 0,
      ),
    [rows],
  );

  useEffect(() => {
    contacts.load().catch(() => undefined);
  }, []);

  const upload = async (file: File, key: string) => {
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const up = (await api.uploadFile(form, { silent: true })) as UploadResult;
      setPics((p) => p.map((x) => (x.key === key ? { ...x, state: 'done', fileId: up.file_id } : x)));
    } catch {
      setPics((p) => p.map((x) => (x.key === key ? { ...x, state: 'failed' } : x)));
    }
  };

  const pick = (files: FileList | null) => {
    if (!files) return;
    const room = MOMENT_IMAGES_MAX - pics.length;
    const added = [...files]
      .slice(0, room)
      .map((f) => ({ file: f, key: randomUuid(), preview: URL.createObjectURL(f) }));
    setPics((p) => [...p, ...added.map((a) => ({ key: a.key, preview: a.preview, state: 'uploading' as const }))]);
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
              {p.state !== 'done' && (
                <span className="moment-pick-state">
                  {p.state === 'uploading' ? t('moments.uploading') : t('moments.uploadFailed')}
                </span>
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
        <fieldset className="moment-visibility">
          <legend>{t('moments.whoCanSee')}</legend>
          {VISIBILITIES.map(([v, label]) => (
            <label key={v}>
              <input type="radio" name="visibility" checked={visibility === v} onChange={() => setVisibility(v)} />
              {t(label)}
            </label>
          ))}
        </fieldset>
        {needsPeople && (
          <fieldset className="moment-people">
            <legend>{visibility === 3 ? t('moments.pickOnly') : t('moments.pickExcept')}</legend>
            {friends.length === 0 && <p>{t('moments.noFriends')}</p>}
            {friends.map((f) => (
              <label key={f.user_id}>
                <input
                  type="checkbox"
                  checked={chosen.has(f.user_id)}
                  onChange={(e) =>
                    setChosen((s) => {
                      const next = new Set(s);
                      if (e.target.checked) next.add(f.user_id);
                      else next.delete(f.user_id);
                      return next;
                    })
                  }
                />
                <Avatar src={f.avatar} name={f.displayName} alt="" size={32} />
                {f.displayName}
              </label>
            ))}
          </fieldset>
        )}
      </div>
    </Page>
  );
}
