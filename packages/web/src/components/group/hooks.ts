import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { MessageKey } from '../../i18n/keys';
import { paths } from '../../nav/paths';
import { useGroup, type GroupEntry, type GroupStatus } from '../../stores/group';
import { closePanel } from '../../lib/desk-panes';
import { usePane } from '../desk/pane';
import { feedback } from '../feedback';

/** A group id on the wire (docs/protocol.md §1), as protocol's schema has it. */
const GROUP_ID = /^group-[1-9][0-9]*$/;

/** The group a page is about: its `id` query value when it is a group id (`group-3`). */
export function useGroupIdParam(): string | null {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  return GROUP_ID.test(id) ? id : null;
}

const GONE: Partial<Record<GroupStatus, MessageKey>> = {
  removed: 'group.gone.removed',
  left: 'group.gone.left',
  disbanded: 'group.gone.disbanded',
};

/** The message a page shows when its group went away for me; null while I am in it. */
export function goneMessage(status: GroupStatus | undefined): MessageKey | null {
  return (status && GONE[status]) ?? null;
}

/**
 * A page of a group that went away for me (removed, left, disbanded) closes: home, with a
 * message saying why. In the wide layout's right panel the chat beside it says so and closes
 * both; only a disbanded group's chat stays (read-only), and then the panel closes by itself.
 */
export function useCloseWhenGone(entry: GroupEntry | undefined): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const inPanel = usePane()?.pane === 'panel';
  const message = goneMessage(entry?.status);
  const disbanded = entry?.status === 'disbanded';
  useEffect(() => {
    if (!message) return;
    if (inPanel) {
      if (disbanded) {
        feedback.toast(t(message));
        closePanel();
      }
      return;
    }
    feedback.toast(t(message));
    void navigate(paths.home, { replace: true });
  }, [message, inPanel, disbanded, navigate, t]);
}

/**
 * The same for a page that shows a group without holding its record itself (the chat page):
 * it watches the group through the group store and closes when the group goes away for me.
 */
export function useCloseWhenGroupGone(groupId: string | null): void {
  useCloseWhenGone(useGroup(groupId));
}
