import { sharesReceipts } from '@sparrow/protocol';
import { useCallback, useEffect, useState } from 'react';
import { useConfig } from '../../stores/config';
import { receipts } from '../../stores/read-receipts';
import { useSession } from '../../stores/session';
import { ReadListSheet } from './ReadListSheet';

interface Options {
  /** The chat's key: a group's `group-<n>`. */
  chatKey: string;
  isGroup: boolean;
  /** The group's `setting.receipt` switch is on (as known; on until read). */
  groupOn: boolean;
  /** A disbanded group's chat: no one reads it any more. */
  disbanded: boolean;
}

/**
 * What a chat shows of group read receipts: the group whose counts my messages carry (null where
 * none show: a private chat, receipts off for the group or for me, as protocol's `sharesReceipts`
 * rules), what a tap on a count does, and the sheet it opens.
 */
export function useReadReceipts({ chatKey, isGroup, groupOn, disbanded }: Options) {
  const runMode = useConfig((s) => s.config?.sysInfo.runMode ?? 2);
  const own = useSession((s) => s.user?.read_receipt ?? 1);
  const on = isGroup && !disbanded && sharesReceipts({ runMode, own, group: groupOn ? 1 : 0 });
  // Counts held from before receipts went off here are not what they are now.
  useEffect(() => {
    if (!on) receipts.forget(chatKey);
  }, [on, chatKey]);
  // Pushes ask again only for the counts of a chat on screen; another group's wait until it is shown.
  useEffect(() => (on ? receipts.show(chatKey) : undefined), [on, chatKey]);
  const [open, setOpen] = useState<number | null>(null);
  const onReadList = useCallback((msgId: number) => setOpen(msgId), []);
  const close = useCallback(() => setOpen(null), []);
  return {
    receiptsOf: on ? chatKey : null,
    onReadList,
    sheet: on && open !== null ? <ReadListSheet key={open} gid={chatKey} msgId={open} onClose={close} /> : null,
  };
}
