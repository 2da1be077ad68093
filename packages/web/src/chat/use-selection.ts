import { FORWARD_RECORD_MAX, type ForwardMode } from '@sparrow/protocol';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { feedback } from '../components/feedback';
import { paths, withQuery } from '../nav/paths';
import { favorites } from '../stores/favorites';
import type { ConversationEngine } from './engine';

/** A chat's multi-select (多选): the msg_ids chosen, and what the bar does with them. */
export interface Selection {
  /** The chosen msg_ids; null when the chat is not selecting. */
  ids: ReadonlySet<number> | null;
  start(msgId: number): void;
  cancel(): void;
  toggle(msgId: number): void;
  /** Opens the chat picker to forward them one by one or as one record. */
  forward(mode: ForwardMode): void;
  favorite(): Promise<void>;
  /** Deletes them for me, once confirmed. */
  remove(): Promise<void>;
}

/** The chosen ids in the order they were sent. */
const ordered = (ids: ReadonlySet<number>) => [...ids].sort((a, b) => a - b);

export function useSelection(engine: Pick<ConversationEngine, 'remove'>): Selection {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [ids, setIds] = useState<ReadonlySet<number> | null>(null);

  const start = useCallback((msgId: number) => setIds(new Set(msgId > 0 ? [msgId] : [])), []);
  const cancel = useCallback(() => setIds(null), []);
  const toggle = useCallback(
    (msgId: number) =>
      setIds((current) => {
        if (!current) return current;
        const next = new Set(current);
        if (next.has(msgId)) next.delete(msgId);
        else if (next.size >= FORWARD_RECORD_MAX) {
          feedback.toast(t('multiSelect.tooMany', { count: FORWARD_RECORD_MAX }));
          return current;
        } else next.add(msgId);
        return next;
      }),
    [t],
  );

  const forward = useCallback(
    (mode: ForwardMode) => {
      if (!ids?.size) return;
      void navigate(
        withQuery(paths.userSelection, { mode: 'forward', msg_ids: ordered(ids).join(','), forward_mode: mode }),
      );
    },
    [ids, navigate],
  );

  const favorite = useCallback(async () => {
    if (!ids?.size) return;
    if (await favorites.save({ msg_ids: ordered(ids) })) setIds(null);
  }, [ids]);

  const remove = useCallback(async () => {
    if (!ids?.size) return;
    const ok = await feedback
      .confirm({
        content: t('multiSelect.deleteConfirm', { count: ids.size }),
        confirmText: t('multiSelect.delete'),
        cancelText: t('common.cancel'),
      })
      .catch(() => false);
    if (!ok) return;
    for (const id of ordered(ids)) {
      try {
        await api.removeMessage({ id }, { quiet: true });
        engine.remove(id);
      } catch {
        // Shown by the request layer; the others are still deleted.
      }
    }
    setIds(null);
  }, [ids, engine, t]);

  return useMemo(
    () => ({ ids, start, cancel, toggle, forward, favorite, remove }),
    [ids, start, cancel, toggle, forward, favorite, remove],
  );
}
