import { PAGE_LIMIT_DEFAULT, type FileItem, type MessageOf } from '@sparrow/protocol';
import { FolderOutline, PlayOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { request } from '../../api';
import { videoPath } from '../../nav/paths';
import { FileIcon } from '../../components/message/FileIcon';
import { FILE_CATES } from '../../components/message/file-kind';
import { Page } from '../../components/Page';
import { PagedListBody } from '../../components/PagedListBody';
import { SearchBar } from '../../components/SearchBar';
import { formatFileSize } from '../../lib/file-size';
import type { Loaded } from '../../lib/paged-list';
import { useDebounced } from '../../lib/use-debounced';
import { usePagedList } from '../../lib/use-paged-list';
import { useParamChoice } from '../../lib/use-param-choice';
import { useVoicePlayback } from '../../lib/voice-player';
import '../../components/message/media.css';
import '../message/media-pages.css';

const ImageViewer = lazy(() =>
  import('../../components/message/ImageViewer').then((m) => ({ default: m.ImageViewer })),
);

/** Typing in the search box waits this long before asking. */
const SEARCH_DEBOUNCE_MS = 500;

type Tab = 'sent' | 'received';
type Cate = (typeof FILE_CATES)[number]['cate'];

const fileKey = (f: FileItem) => f.msg_id;

function dateOf(ms: number, language: string): string {
  return new Date(ms).toLocaleDateString(language, { year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** A file as the image viewer wants it: a message of its picture, its size and thumbnail unknown (0, ''). */
function asImageMessage(f: FileItem): MessageOf<'image'> {
  return {
    id: `file-${f.msg_id}`,
    msg_id: f.msg_id,
    type: 'image',
    content: f.src,
    sendTime: f.create_time,
    toContactId: f.toContactId,
    is_group: 0,
    status: 'succeed',
    is_read: 1,
    at: [],
    pid: 0,
    fromUser: f.fromUser,
    extends: { width: 0, height: 0, thumb: '', file_id: f.file_id },
  };
}

/**
 * The name to show: pictures, voice and videos sent from the chat are stored under their content
 * hash, which means nothing to a person; those read as their kind instead.
 */
function shownName(f: FileItem, kind: (cate: FileItem['cate']) => string): string {
  if (f.name && !/^[0-9a-f]{16,}\.\w+$/i.test(f.name)) return f.name;
  return `${kind(f.cate)} (${f.ext.toUpperCase()})`;
}

function downloadUrl(f: FileItem): string {
  return `${f.src}?name=${encodeURIComponent(f.name)}`;
}

function AudioButton({ file }: { file: FileItem }) {
  const { t } = useTranslation();
  const { playing, toggle } = useVoicePlayback(`file-${file.msg_id}`, file.src);
  return (
    <button type="button" className="files-play" aria-pressed={playing} onClick={toggle}>
      {playing ? t('media.files.stop') : t('media.files.play')}
    </button>
  );
}

function FileRow({ file, tab, onImage }: { file: FileItem; tab: Tab; onImage: (f: FileItem) => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const who = file.fromUser.displayName || file.fromUser.realname;
  const meta = [formatFileSize(file.size), dateOf(file.create_time, i18n.language)];
  if (tab === 'received' && who) meta.push(t('media.files.from', { name: who }));
  const icon =
    file.cate === 2 ? (
      <img className="files-thumb" src={file.src} alt="" loading="lazy" />
    ) : file.cate === 4 ? (
      <span className="files-thumb files-thumb-video" aria-hidden="true">
        <PlayOutline />
      </span>
    ) : (
      <span className="files-icon">
        <FileIcon ext={file.ext} size={40} />
      </span>
    );
  const body = (
    <>
      {icon}
      <span className="files-text">
        <span className="files-name">{shownName(file, (c) => t(`media.files.kindName.${c}`))}</span>
        <span className="files-meta">{meta.join(' · ')}</span>
      </span>
    </>
  );
  return (
    <li className="files-row">
      {file.cate === 2 ? (
        <button type="button" className="files-open" onClick={() => onImage(file)}>
          {body}
        </button>
      ) : file.cate === 4 ? (
        <button type="button" className="files-open" onClick={() => void navigate(videoPath(file.src))}>
          {body}
        </button>
      ) : (
        <a className="files-open" href={downloadUrl(file)} download={file.name}>
          {body}
        </a>
      )}
      {file.cate === 3 && <AudioButton file={file} />}
    </li>
  );
}

/**
 * File management (docs/product.md §2: "file management (sent, received)"): the files I sent or received,
 * filtered by kind, searched by name, 20 to a page.
 */
export default function FilesPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useParamChoice<Tab>('tab', ['sent', 'received']);
  const [cate, setCate] = useState<Cate | 0>(0);
  const [text, setText] = useState('');
  const keywords = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const [viewing, setViewing] = useState<FileItem | null>(null);

  const read = useCallback(
    async ({ pages }: Loaded<FileItem>) => {
      const { data, count } = await request(
        'fileList',
        {
          is_mine: tab === 'sent' ? 1 : 0,
          page: pages + 1,
          limit: PAGE_LIMIT_DEFAULT,
          ...(cate ? { cate } : {}),
          ...(keywords ? { keywords } : {}),
        },
        { silent: true },
      );
      return { items: data, total: count ?? (pages === 0 ? data.length : undefined) };
    },
    [tab, cate, keywords],
  );
  const [list, pager] = usePagedList(read, fileKey);

  return (
    <Page title={t('media.routes.files')} className="files-page">
      <fieldset className="segmented">
        <legend>{t('media.files.which')}</legend>
        {(['sent', 'received'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="files-tab" checked={tab === k} onChange={() => setTab(k)} />
            {t(k === 'sent' ? 'media.files.sent' : 'media.files.received')}
          </label>
        ))}
      </fieldset>
      <SearchBar value={text} onChange={setText} placeholder={t('media.files.search')} />
      <div className="files-cates" role="group" aria-label={t('media.files.kind')}>
        {([{ cate: 0, key: 'all' }, ...FILE_CATES] as const).map((c) => (
          <button
            key={c.cate}
            type="button"
            className="files-cate"
            aria-pressed={cate === c.cate}
            onClick={() => setCate(c.cate)}
          >
            {t(`media.files.cate.${c.key}`)}
          </button>
        ))}
      </div>
      <PagedListBody
        list={list}
        pager={pager}
        icon={<FolderOutline />}
        loadFailed={t('media.files.loadFailed')}
        empty={{
          title: keywords || cate ? t('media.files.noMatch') : t('media.files.empty'),
          description: tab === 'sent' ? t('media.files.emptySent') : t('media.files.emptyReceived'),
        }}
        total={(count) => t('media.files.total', { count })}
        end={t('media.files.end')}
      >
        <ul className="files-list">
          {list.items.map((f) => (
            <FileRow key={f.msg_id} file={f} tab={tab} onImage={setViewing} />
          ))}
        </ul>
      </PagedListBody>
      {viewing && (
        <Suspense fallback={null}>
          <ImageViewer images={[asImageMessage(viewing)]} start={0} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </Page>
  );
}
