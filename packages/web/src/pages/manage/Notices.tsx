import { ANNOUNCEMENT_MAX } from '@sparrow/protocol';
import { SoundOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import type { ManageT } from './i18n';
import { usePaged } from './paged';
import { formatTime, PagedRows } from './parts';

/** 公告: publish to everyone's Announcements chat, see what was published, withdraw. */
export function Notices({ t, locale }: { t: ManageT; locale: string }) {
  const list = usePaged('manageNoticeList', {});
  const [title, setTitle] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const publish = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim() || !notice.trim()) {
      feedback.toast(t('notices.required'));
      return;
    }
    setBusy(true);
    try {
      await api.manageNoticePublish({ title, notice }, { loading: true, quiet: true });
      feedback.toast(t('notices.published'));
      setTitle('');
      setNotice('');
      list.reload();
    } catch {
      // The server's message was shown.
    } finally {
      setBusy(false);
    }
  };
  const withdraw = async (id: number) => {
    const ok = await feedback.confirm({
      content: t('notices.confirmWithdraw'),
      confirmText: t('notices.withdraw'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await api.manageNoticeDel({ id }, { quiet: true });
      feedback.toast(t('common.done'));
      list.reload();
    } catch {
      // The server's message was shown.
    }
  };

  return (
    <>
      <section className="manage-section" aria-labelledby="manage-compose">
        <h2 className="manage-section-title" id="manage-compose">
          {t('notices.compose')}
        </h2>
        <form className="manage-form" onSubmit={(e) => void publish(e)}>
          <label className="manage-field">
            <span>{t('notices.title')}</span>
            <input value={title} maxLength={128} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <label className="manage-field">
            <span>{t('notices.text')}</span>
            <textarea
              value={notice}
              rows={5}
              maxLength={ANNOUNCEMENT_MAX}
              onChange={(e) => setNotice(e.target.value)}
            />
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('notices.publish')}
          </button>
        </form>
      </section>
      <section className="manage-section" aria-labelledby="manage-notices">
        <h2 className="manage-section-title" id="manage-notices">
          {t('notices.list')}
        </h2>
        <PagedRows
          list={list}
          empty={{ icon: <SoundOutline />, title: t('notices.empty'), description: t('notices.emptyDesc') }}
          t={t}
        >
          {list.items.map((n) => (
            <li key={n.id} className="manage-row">
              <div className="manage-row-main">
                <p className="manage-row-title">{n.title}</p>
                <p className="manage-notice-text">{n.notice}</p>
                <p className="manage-row-sub">{formatTime(n.create_time, locale)}</p>
              </div>
              <div className="manage-row-actions">
                <button
                  type="button"
                  className="button button-default"
                  aria-label={t('notices.withdrawTitle', { title: n.title })}
                  onClick={() => void withdraw(n.id)}
                >
                  {t('notices.withdraw')}
                </button>
              </div>
            </li>
          ))}
        </PagedRows>
      </section>
    </>
  );
}
