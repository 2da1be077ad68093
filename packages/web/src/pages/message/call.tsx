import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { calls, useCall } from '../../call/store';
import { CallScreen } from '../../components/call/CallScreen';
import { useBack } from '../../nav/navigation';
import '../../components/call/call.css';

/** How long the screen tells how a call ended before it closes, ms. */
const END_SHOWN_MS = 1_500;

/**
 * The call page (docs/product.md §2 `/pages/message/call?msg_id&type&status&id&name&avatar`): `status` 1
 * places the call `msg_id` to user `id`; 3 shows the call ringing me, which the dispatcher opened.
 * The call itself lives in the call store, so it goes on while other pages are shown.
 */
export default function CallPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const back = useBack();
  const id = params.get('msg_id') ?? '';
  const peerId = Number(params.get('id'));
  const type = params.get('type') === '1' ? 1 : 0;
  const placing = params.get('status') === '1';
  const name = params.get('name') ?? '';
  const avatar = params.get('avatar') ?? '';
  const call = useCall((s) => s.call);

  useEffect(() => {
    if (placing && id && Number.isInteger(peerId) && peerId > 0) calls.place(id, { id: peerId, name, avatar }, type);
  }, [placing, id, peerId, name, avatar, type]);

  // The call this page names; any other call in progress is shown instead of a second one.
  const shown = call && (call.id === id || call.phase !== 'ended') ? call : null;
  const over = !shown || shown.phase === 'ended';
  const waitingToPlace = placing && call?.id !== id;

  useEffect(() => {
    if (!over || waitingToPlace) return;
    const timer = setTimeout(() => {
      if (shown) calls.dismiss(shown.id);
      back();
    }, END_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [over, waitingToPlace, shown, back]);

  if (shown) return <CallScreen call={shown} />;
  // An old link or a reload: the call is no longer here.
  return (
    <main id="main" className="call-screen" aria-labelledby="call-peer">
      <header className="call-head">
        <h1 className="call-name" id="call-peer">
          {name || t('routes.call')}
        </h1>
        <p className="call-status" role="status">
          {waitingToPlace ? t('call.waiting') : t('call.end.ended')}
        </p>
      </header>
    </main>
  );
}
