import type { HeldItem } from '@sparrow/protocol';
import { CheckShieldOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import type { ManageT } from './i18n';
import { usePaged } from './paged';
import { formatTime, PagedRows } from './parts';

const STATUSES = [0, 1, 2] as const;

/** One held item: who wrote what, where it goes, the words that held it; approve or reject while waiting. */
function HeldRow({
  item,
  t,
  locale,
  onDecided,
}: {
  item: HeldItem;
  t: ManageT;
  locale: string;
  onDecided: () => void;
}) {
  const decide = async (decision: 'approve' | 'reject') => {
    try {
      await api.manageHeldDecide({ id: item.id, decision }, { loading: true, quiet: true });
      feedback.toast(t(decision === 'approve' ? 'held.approved' : 'held.rejected'));
    } catch {
      // The server's message was shown (decided meanwhile by another admin).
    }
    onDecided();
  };
  const author = `${item.realname} (${item.account})`;
  return (
    <li className="manage-row">
      <div className="manage-row-main">
        <p className="manage-row-title">
          <span className="manage-tag">{t(`held.kind.${item.kind}`)}</span> {author}
          {item.target && ` → ${item.target}`}
        </p>
        <p className="manage-notice-text">{item.content}</p>
        <p className="manage-row-sub">
          {t('held.words', { words: item.words.join('、') })} · {formatTime(item.create_time, locale)}
        </p>
      </div>
      {item.status === 0 && (
        <div className="manage-row-actions">
          <button
            type="button"
            className="button button-primary"
            aria-label={t('held.approveTitle', { name: author })}
            onClick={() => void decide('approve')}
          >
            {t('held.approve')}
          </button>
          <button
            type="button"
            className="button button-danger"
            aria-label={t('held.rejectTitle', { name: author })}
            onClick={() => void decide('reject')}
          >
            {t('held.reject')}
          </button>
        </div>
      )}
    </li>
  );
}

/** 待审核: what review lists held back, oldest first; approve (delivered, published) or reject. */
export function Held({ t, locale }: { t: ManageT; locale: string }) {
  const [status, setStatus] = useState<(typeof STATUSES)[number]>(0);
  const list = usePaged('manageHeldList', { status });
  return (
    <section className="manage-section" aria-labelledby="manage-held">
      <h2 className="manage-section-title" id="manage-held">
        {t('held.title')}
      </h2>
      <form className="manage-form manage-inline" onSubmit={(e) => e.preventDefault()}>
        <label className="manage-field">
          <span>{t('held.status')}</span>
          <select value={status} onChange={(e) => setStatus(Number(e.target.value) as (typeof STATUSES)[number])}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`held.statuses.${s}`)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <PagedRows
        list={list}
        empty={{ icon: <CheckShieldOutline />, title: t('held.empty'), description: t('held.emptyDesc') }}
        t={t}
      >
        {list.items.map((item) => (
          <HeldRow key={item.id} item={item} t={t} locale={locale} onDecided={list.reload} />
        ))}
      </PagedRows>
    </section>
  );
}
