import { feedback } from '../components/feedback';
import { translate } from '../i18n';
import { randomUuid } from '../lib/ids';
import { navigateTo } from '../nav/navigation';
import { callPath, type CallQuery } from '../nav/paths';
import { canCall } from './media';
import type { CallPeer } from './session';
import type { CallType } from './signal';
import { callStore } from './store';

/** The call page of the call in progress. */
export function liveCallPath(): string | null {
  const call = callStore.getState().call;
  if (!call || call.phase === 'ended') return null;
  const query: CallQuery = {
    msg_id: call.id,
    type: call.type,
    status: call.role === 'caller' ? 1 : 3,
    id: call.peer.id,
    name: call.peer.name,
    avatar: call.peer.avatar,
  };
  return callPath(query);
}

/**
 * Calls someone (the chat's "+" panel, their profile, a call bubble): opens the call page, which
 * places the call. While another call goes on, that call's page opens instead.
 */
export function startCall(peer: CallPeer, type: CallType): void {
  if (!canCall()) {
    feedback.toast(translate('call.end.unsupported'));
    return;
  }
  const live = liveCallPath();
  if (live) {
    feedback.toast(translate('call.busyElsewhere'));
    navigateTo(live);
    return;
  }
  navigateTo(callPath({ msg_id: randomUuid(), type, status: 1, id: peer.id, name: peer.name, avatar: peer.avatar }));
}
