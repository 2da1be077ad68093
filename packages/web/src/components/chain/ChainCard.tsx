import { CHAIN_TEXT_MAX, GroupRoles, UNITS_PER_GRAPHEME_MAX, withinGraphemes, type MessageOf } from '@sparrow/protocol';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { applyChain } from '../../chat/chains';
import { contactKey } from '../../lib/conversation-list';
import { useContacts } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import { feedback } from '../feedback';
import { Field } from '../Field';
import { Sheet } from '../Sheet';
import './chain.css';

/**
 * A sign-up chain's bubble (接龙): its title, its example, the lines numbered in the order they
 * were added and 接龙 at its foot, which opens a box with my line (the example to start from when I
 * have none) to add, change or take back; its starter, the group's owner and administrators close
 * it, and a closed chain shows 已结束. Pushes keep it as the chain now is.
 */
export function ChainCard({ message }: { message: MessageOf<'chain'> }) {
  const { t } = useTranslation();
  const me = useSession((s) => s.user?.user_id ?? 0);
  const role = useContacts((s) => s.rows[contactKey(message.toContactId)]?.role ?? 0);
  const [editing, setEditing] = useState(false);
  const { title, example, entries, closed, creator } = message.extends;
  const mine = entries.find((e) => e.user_id === me);
  const mayClose = !closed && (creator === me || role === GroupRoles.Owner || role === GroupRoles.Admin);

  const handleClose = async () => {
    const sure = await feedback.confirm({
      content: t('chain.closeConfirm'),
      confirmText: t('chain.close'),
      cancelText: t('chain.cancel'),
      danger: true,
    });
    if (!sure) return;
    try {
      applyChain(await api.chainClose({ id: message.msg_id }));
    } catch {
      // The request layer said why.
    }
  };

  return (
    <section className="chain-card" aria-label={t('chain.label', { title })}>
      <p className="chain-card-head">
        <span className="chain-card-tag">{t('chain.tile')}</span>
        <span className="chain-card-title">{title}</span>
      </p>
      {example && <p className="chain-card-example">{example}</p>}
      {entries.length > 0 ? (
        <ol className="chain-card-lines" aria-label={t('chain.lines')}>
          {entries.map((e) => (
            <li key={e.user_id} className={e.user_id === me ? 'chain-card-line chain-card-mine' : 'chain-card-line'}>
              <span className="chain-card-name">{e.name}</span> {e.text}
            </li>
          ))}
        </ol>
      ) : (
        <p className="chain-card-empty">{t('chain.empty')}</p>
      )}
      <span className="chain-card-count">{t('chain.count', { count: entries.length })}</span>
      <div className="chain-card-foot">
        {closed ? (
          <span className="chain-card-closed">{t('chain.closed')}</span>
        ) : (
          <button type="button" className="chain-card-button" onClick={() => setEditing(true)}>
            {mine ? t('chain.edit') : t('chain.join')}
          </button>
        )}
        {mayClose && (
          <button type="button" className="chain-card-button chain-card-end" onClick={() => void handleClose()}>
            {t('chain.close')}
          </button>
        )}
      </div>
      {/* Over the page, not inside the bubble, whose list would draw later messages above it. */}
      {editing &&
        createPortal(
          <ChainLineSheet
            msgId={message.msg_id}
            title={title}
            start={mine?.text ?? example ?? ''}
            hasLine={mine !== undefined}
            onClose={() => setEditing(false)}
          />,
          document.body,
        )}
    </section>
  );
}

/** The box of my line: add it, change it, or take it back. */
function ChainLineSheet(props: { msgId: number; title: string; start: string; hasLine: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(props.start);
  const [busy, setBusy] = useState(false);
  const tooLong = !withinGraphemes(text.trim(), CHAIN_TEXT_MAX);
  const run = async (call: () => Promise<Parameters<typeof applyChain>[0]>) => {
    setBusy(true);
    try {
      applyChain(await call());
      props.onClose();
    } catch {
      // The request layer said why (closed, full, muted).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Sheet title={props.title} onClose={props.onClose}>
      <form
        className="chain-sheet"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() && !tooLong) void run(() => api.chainJoin({ id: props.msgId, text: text.trim() }));
        }}
      >
        <Field
          label={t('chain.text')}
          value={text}
          onChange={setText}
          maxLength={CHAIN_TEXT_MAX * UNITS_PER_GRAPHEME_MAX}
          error={tooLong ? t('chain.tooLong', { max: CHAIN_TEXT_MAX }) : null}
          autoFocus
          enterKeyHint="done"
        />
        <div className="chain-sheet-actions">
          {props.hasLine && (
            <button
              type="button"
              className="button button-default"
              disabled={busy}
              onClick={() => void run(() => api.chainWithdraw({ id: props.msgId }))}
            >
              {t('chain.withdraw')}
            </button>
          )}
          <button type="submit" className="button button-primary" disabled={busy || !text.trim()}>
            {t('chain.submit')}
          </button>
        </div>
      </form>
    </Sheet>
  );
}
