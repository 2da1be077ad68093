import { CHAIN_TEXT_MAX, CHAIN_TITLE_MAX, UNITS_PER_GRAPHEME_MAX, withinGraphemes } from '@sparrow/protocol';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { deliver } from '../../chat/registry';
import { contactIdOf, type ContactKey } from '../../lib/conversation-list';
import { Field } from '../Field';
import { Sheet } from '../Sheet';
import './chain.css';

/** 发起接龙: a chain's title and its example line, started in the group `chatKey` names. */
export function ChainStartSheet({ chatKey, onClose }: { chatKey: ContactKey; onClose: () => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [example, setExample] = useState('');
  const [busy, setBusy] = useState(false);
  // One id for this sheet's chain: a second tap after a lost answer is answered with the same message.
  const id = useRef(crypto.randomUUID());
  const titleLong = !withinGraphemes(title.trim(), CHAIN_TITLE_MAX);
  const exampleLong = !withinGraphemes(example.trim(), CHAIN_TEXT_MAX);

  const handleStart = async () => {
    if (!title.trim() || titleLong || exampleLong) return;
    setBusy(true);
    try {
      const message = await api.chainStart({
        id: id.current,
        toContactId: String(contactIdOf(chatKey)),
        title: title.trim(),
        ...(example.trim() && { example: example.trim() }),
      });
      deliver([message]);
      onClose();
    } catch {
      // The request layer said why (muted, 全员禁言).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Sheet title={t('chain.sheetTitle')} onClose={onClose}>
      <form
        className="chain-sheet"
        onSubmit={(e) => {
          e.preventDefault();
          void handleStart();
        }}
      >
        <Field
          label={t('chain.title')}
          placeholder={t('chain.titlePlaceholder')}
          value={title}
          onChange={setTitle}
          maxLength={CHAIN_TITLE_MAX * UNITS_PER_GRAPHEME_MAX}
          error={titleLong ? t('chain.tooLong', { max: CHAIN_TITLE_MAX }) : null}
          autoFocus
        />
        <Field
          label={t('chain.example')}
          placeholder={t('chain.examplePlaceholder')}
          value={example}
          onChange={setExample}
          maxLength={CHAIN_TEXT_MAX * UNITS_PER_GRAPHEME_MAX}
          error={exampleLong ? t('chain.tooLong', { max: CHAIN_TEXT_MAX }) : null}
        />
        <div className="chain-sheet-actions">
          <button type="button" className="button button-default" onClick={onClose}>
            {t('chain.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || !title.trim() || titleLong || exampleLong}
          >
            {t('chain.start')}
          </button>
        </div>
      </form>
    </Sheet>
  );
}
