import type { UploadResult } from '@sparrow/protocol';
import { AddOutline, CloseOutline, RedoOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { randomUuid } from '../../lib/ids';
import './moments.css';

/** A picture picked to go with a post or a report: uploaded as soon as it is picked. */
export interface PickedPicture {
  key: string;
  file: File;
  preview: string;
  state: 'uploading' | 'done' | 'failed';
  /** Share of the picture's bytes sent, 0–1. */
  progress: number;
  fileId?: number;
}

/** Pictures picked, up to `max`, each uploaded at once (again on a retry); their previews freed when the page goes. */
export function usePicturePicks(max: number) {
  const [pics, setPics] = useState<PickedPicture[]>([]);
  const previews = useRef(new Set<string>());

  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  const patch = (key: string, change: Partial<PickedPicture>) =>
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
    const added: PickedPicture[] = [...files].slice(0, max - pics.length).map((file) => {
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      return { key: randomUuid(), file, preview, state: 'uploading', progress: 0 };
    });
    setPics((p) => [...p, ...added]);
    for (const a of added) void upload(a.file, a.key);
  };

  return {
    pics,
    max,
    pick,
    upload,
    remove: (key: string) => setPics((all) => all.filter((x) => x.key !== key)),
    uploading: pics.some((p) => p.state === 'uploading'),
    /** The uploaded pictures' file ids, in the order picked. */
    fileIds: pics.filter((p) => p.state === 'done').map((p) => p.fileId!),
  };
}

/**
 * The grid of pictures picked (a post's, a report's): each with its upload's progress, a retry when
 * it failed and a remove button, then a tile to pick more while there is room.
 */
export function PicturePicks({
  picks,
  className = '',
  ...labelled
}: { picks: ReturnType<typeof usePicturePicks>; className?: string } & (
  { 'aria-label': string } | { 'aria-labelledby': string }
)) {
  const { t } = useTranslation();
  const { pics, max, pick, upload, remove } = picks;
  return (
    <ul className={`moment-grid moment-grid-3 moment-picks ${className}`.trim()} {...labelled}>
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
              <span aria-hidden="true">{t('moments.uploadPercent', { percent: Math.round(p.progress * 100) })}</span>
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
            onClick={() => remove(p.key)}
          >
            <CloseOutline aria-hidden="true" />
          </button>
        </li>
      ))}
      {pics.length < max && (
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
  );
}
