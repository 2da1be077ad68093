import type { UploadResult } from '@sparrow/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api';
import { momentPaths } from '../../nav/paths';
import { useMoments } from '../../stores/moments';
import { useSession } from '../../stores/session';
import { Avatar } from '../Avatar';

/**
 * The top of the feed or of someone's album: the cover (mine changed by tapping it), my name and
 * picture, and the entry to my new notices. `albumOf` names the album's owner when it is not mine.
 */
export function MomentsCover({ albumOf, albumName }: { albumOf?: number | undefined; albumName?: string | undefined }) {
  const { t } = useTranslation();
  const me = useSession((s) => s.user);
  const notices = useMoments((s) => s.count);
  const [cover, setCover] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const isAlbum = albumOf !== undefined;

  useEffect(() => {
    // An album shows its owner's cover; the cover stays blank when it cannot be read.
    setCover('');
    api
      .momentsSetting(albumOf !== undefined ? { user_id: albumOf } : {}, { silent: true })
      .then((s) => setCover(s.cover))
      .catch(() => undefined);
  }, [albumOf]);

  const change = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    const up = (await api.uploadFile(form, { loading: true })) as UploadResult;
    setCover((await api.momentsSetCover({ file_id: up.file_id })).cover);
  };

  const style = cover ? { backgroundImage: `url(${cover})` } : undefined;
  return (
    <div className={`moment-header${isAlbum ? ' moment-header-album' : ''}`}>
      {isAlbum ? (
        <div
          className="moment-cover"
          style={style}
          {...(cover && albumName ? { role: 'img', 'aria-label': t('moments.coverOf', { name: albumName }) } : {})}
        />
      ) : (
        <button
          type="button"
          className="moment-cover"
          style={style}
          onClick={() => input.current?.click()}
          aria-label={t('moments.changeCover')}
        />
      )}
      <input ref={input} type="file" accept="image/*" hidden onChange={(e) => void change(e.target.files?.[0])} />
      {!isAlbum && me && (
        <div className="moment-me">
          <span className="moment-me-name">{me.displayName || me.realname}</span>
          <Avatar src={me.avatar} name={me.realname} alt="" size={64} />
        </div>
      )}
      {!isAlbum && notices > 0 && (
        <Link to={momentPaths.notices} className="moment-notices-entry">
          {t('moments.newNotices', { count: notices })}
        </Link>
      )}
    </div>
  );
}
