import type { ReadList, ReadListMember } from '@sparrow/protocol';
import { forwardRef, useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso } from 'react-virtuoso';
import { api } from '../../api';
import { receipts } from '../../stores/read-receipts';
import { Avatar } from '../Avatar';
import { LoadingRow } from '../LoadingRow';
import { Sheet } from '../Sheet';
import '../reactions/reactions.css';
import { createListAsker } from './list-asker';
import './receipts.css';

interface Props {
  gid: string;
  msgId: number;
  onClose(): void;
}

type Tab = 'unread' | 'read';

/** A row's height, px (`.reactors-row`: 52 and its border), for the list's own height. */
const ROW_PX = 53;

const List = forwardRef<HTMLUListElement, HTMLAttributes<HTMLUListElement>>(function List(props, ref) {
  return <ul {...props} ref={ref} className="reactors-list" />;
});

const Item = (props: HTMLAttributes<HTMLLIElement>) => <li {...props} className="reactors-row" />;

/**
 * Who has read a message of mine in a group and who has not (消息接收人列表): two tabs, each person
 * with their face and name, drawn as they scroll into view (a list holds up to READ_LISTED_MAX).
 * Kept current as `createListAsker` rules; an answer that could not be had shows a row to try again.
 */
export function ReadListSheet({ gid, msgId, onClose }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('unread');
  const [list, setList] = useState<ReadList | null>(null);
  const [failed, setFailed] = useState(false);
  const asker = useRef<ReturnType<typeof createListAsker<ReadList>> | null>(null);

  useEffect(() => {
    const next = createListAsker(
      msgId,
      () => api.groupReadList({ id: msgId }, { quiet: true }),
      (outcome) => {
        if (outcome.ok) setList(outcome.list);
        setFailed(!outcome.ok);
      },
    );
    asker.current = next;
    next.ask();
    // Every push is seen (not only the last of a render); one that did not pass this message changes nothing here.
    const unsubscribe = receipts.store.subscribe((s, before) => {
      const push = s.pushed[gid];
      if (push && push !== before.pushed[gid]) next.pushed(push);
    });
    return () => {
      unsubscribe();
      next.stop();
    };
  }, [gid, msgId]);

  const handleRetry = () => {
    setFailed(false);
    asker.current?.ask();
  };

  const people: ReadListMember[] = list ? (tab === 'read' ? list.readers : list.unreaders) : [];
  const total = list ? (tab === 'read' ? list.read : list.unread) : 0;
  return (
    <Sheet title={t('receipts.title')} onClose={onClose}>
      <div className="reactors-tabs" role="group" aria-label={t('receipts.lists')}>
        <button type="button" className="reactors-tab" aria-pressed={tab === 'unread'} onClick={() => setTab('unread')}>
          {t('receipts.unreadTab', { count: list?.unread ?? 0 })}
        </button>
        <button type="button" className="reactors-tab" aria-pressed={tab === 'read'} onClick={() => setTab('read')}>
          {t('receipts.readTab', { count: list?.read ?? 0 })}
        </button>
      </div>
      {failed && (
        <div className="receipts-failed" role="alert">
          <span>{t('receipts.failed')}</span>
          <button type="button" className="small-button" onClick={handleRetry}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {list === null ? (
        !failed && <LoadingRow />
      ) : people.length === 0 ? (
        <p className="receipts-empty">{t('receipts.empty')}</p>
      ) : (
        <>
          <Virtuoso
            key={tab}
            className="receipts-scroller"
            style={{ height: `min(60vh, ${people.length * ROW_PX}px)` }}
            data={people}
            components={{ List, Item }}
            computeItemKey={(_, p) => p.user_id}
            itemContent={(_, p) => (
              <>
                <Avatar src={p.avatar} name={p.name} alt="" size={36} />
                <span className="reactors-name">{p.name}</span>
              </>
            )}
          />
          {total > people.length && (
            <p className="receipts-more">{t('receipts.more', { count: total - people.length })}</p>
          )}
        </>
      )}
    </Sheet>
  );
}
