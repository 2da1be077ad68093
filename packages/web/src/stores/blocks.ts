import type { PushPayload } from '@sparrow/protocol';
import { api } from '../api';
import { feedback } from '../components/feedback';
import { translate } from '../i18n';

/** Hears each change of my block list: mine here, or another device's `block` push. */
export type BlocksListener = (data: PushPayload<'block'>) => void;

const listeners = new Set<BlocksListener>();

function tell(data: PushPayload<'block'>): void {
  for (const listener of [...listeners]) listener(data);
}

/** My block list (黑名单): blocking after a confirmation, unblocking, and the changes open pages follow. */
export const blocks = {
  /**
   * Blocks someone once I confirm what it does, or unblocks them; says so and answers whether the
   * list changed.
   */
  async set(userId: number, blocked: boolean): Promise<boolean> {
    if (blocked) {
      const ok = await feedback
        .confirm({
          title: translate('block.confirmTitle'),
          content: translate('block.confirm'),
          confirmText: translate('block.confirmOk'),
          cancelText: translate('common.cancel'),
          danger: true,
        })
        .catch(() => false);
      if (!ok) return false;
    }
    try {
      if (blocked) await api.blockAdd({ user_id: userId }, { quiet: true });
      else await api.blockDel({ user_id: userId }, { quiet: true });
    } catch {
      // The request layer said why.
      return false;
    }
    feedback.toast(translate(blocked ? 'block.added' : 'block.removed'));
    tell({ user_id: userId, blocked: blocked ? 1 : 0 });
    return true;
  },

  /** A push `block`: another device of mine changed the list. */
  onPush(data: PushPayload<'block'>): void {
    tell(data);
  },

  /** Hears every change until the returned function is called (an effect's cleanup). */
  subscribe(listener: BlocksListener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
