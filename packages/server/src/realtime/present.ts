import {
  chainText,
  translate,
  type AdminNotice,
  type Message,
  type PushFrame,
  type MessageOf,
  DEFAULT_LOCALE,
  type RaingadPushFrame,
  type RaingadPushSchemas,
  PICTURES,
} from '@sparrow/protocol';
import type * as z from 'zod';

/**
 * The kinds of socket, each with its presenter: Sparrow's own client, which reads the frames as
 * docs/protocol.md §4 fixes them, and Raingad 6.x clients (docs/protocol.md §1 "Old clients"), which join their socket
 * over HTTP bindUid and read some pushes in the original server's shape
 * (`docs/raingad.md` §4.2).
 */
export type SocketKind = 'sparrow' | 'raingad';

/** A socket's kind from how it joined (hub.ts `Connection.boundOverHttp`). */
export function kindOf(conn: { boundOverHttp?: boolean | undefined }): SocketKind {
  return conn.boundOverHttp === true ? 'raingad' : 'sparrow';
}

/**
 * Facts a push carries beside its frame for a kind of socket that reads them and Sparrow's frame
 * leaves out; they travel with the push on the bus.
 */
export interface PushExtras {
  /** `isRead`: the messages the peer has just read, as their sender sees them. */
  read?: Message[] | undefined;
}

/** A frame as some kind of socket reads it (each shape in protocol's events.ts). */
export type ShownFrame = PushFrame | RaingadPushFrame;

/**
 * The frame a socket of `kind` is sent for a push, or null when that kind is not told of it.
 * `clientId` is the socket it goes to, which `offline` names for Sparrow's client; frames that name
 * no socket are the same for every socket of a kind.
 */
export function present(
  kind: SocketKind,
  frame: PushFrame,
  extras: PushExtras | undefined,
  clientId: string,
): ShownFrame | null {
  return kind === 'raingad' ? forRaingad(frame, extras) : forSparrow(frame, clientId);
}

function forSparrow(frame: PushFrame, clientId: string): ShownFrame {
  // `offline` names the socket it ends, and only the node holding the socket knows its id.
  if (frame.type === 'offline') return { ...frame, data: { ...frame.data, client_id: clientId } };
  return frame;
}

type Replacement<E extends PushFrame['type']> = (
  frame: Extract<PushFrame, { type: E }>,
  extras: PushExtras | undefined,
) => ShownFrame | null;

/**
 * The pushes Raingad clients read otherwise, and what they are sent instead (null: nothing); every
 * other push they read as Sparrow's client does. `offline` keeps `client_id` as published ('' or
 * the socket that took over): not theirs, which is what makes those clients sign out on it.
 */
const RAINGAD: { [E in PushFrame['type']]?: Replacement<E> } = {
  // To those clients `readAll {toContactId}` says that the peer read everything, not that I read on
  // another device: they are not told of it.
  readAll: () => null,
  // They mark read, by `id`, the messages the push lists (their content re-rendered).
  isRead: (frame, extras) =>
    extras?.read?.length ? { type: 'isRead', time: frame.time, data: extras.read.map(renderable) } : null,
  // The original server pushed an announcement as a `simple` message to the `admin_notice` contact.
  adminNotice: (frame) => ({ type: 'simple', time: frame.time, data: announcementMessage(frame.data) }),
  // A friend-request notice came to them without a contact: the original listed no `system` row.
  simple: (frame) => {
    if (frame.data.fromUser.id !== 'system') return drawable(frame);
    const { contactInfo: _row, ...message } = frame.data;
    return { ...frame, data: message };
  },
  group: (frame) => drawable(frame),
  // The original server took a disbanded group off their lists.
  disbandGroup: (frame) => ({ type: 'removeGroup', time: frame.time, data: { group_id: frame.data.group_id } }),
  // Their call screens know the original signals only; a camera turned off is Sparrow's.
  webrtc: (frame) => (frame.data.extends.event === 'camera' ? null : frame),
  // They show no reactions, and lose nothing they could show without the delta.
  reaction: () => null,
  // They show no group read receipts.
  readReceipt: () => null,
  // An edited text reaches them as the original's `updateMessage`: the message by its id says the new text.
  editMessage: (frame) => ({
    type: 'updateMessage',
    time: frame.time,
    data: { id: frame.data.id, type: 'text', content: frame.data.content },
  }),
  // Their favourites are not Sparrow's: they have no list to update.
  favorite: () => null,
  // They show no held messages (a held send answers them as sent).
  held: () => null,
  // They have no page for an export of one's data.
  dataExport: () => null,
  // They keep no block list.
  block: () => null,
  // They show no status and no last-seen time.
  userStatus: () => null,
  // They show no one typing.
  typing: () => null,
  // They show a poll as a text and cannot vote: its counts have nowhere to go.
  poll: () => null,
  // They show a chain as a text (its content) and cannot add a line: a change has nowhere to go.
  chain: () => null,
};

/**
 * A message as those clients can draw it: a merged record (Sparrow's) as a text of its content,
 * "[聊天记录] <title>", a poll as a text of its question and options, a chain as its text; every other
 * kind as it is.
 */
export function renderable<M extends Message>(message: M): M {
  if (message.type === 'poll')
    return { ...message, type: 'text', content: pollText(message.extends), extends: {} } as M;
  // A chain as its text, "接龙 <title>\n1. <name> <line>…", in the source locale as a poll's.
  if (message.type === 'chain') {
    const content = chainText(message.extends, translate(DEFAULT_LOCALE, 'chain.head'));
    return { ...message, type: 'text', content, extends: {} } as M;
  }
  if (message.type !== 'record') return message;
  return { ...message, type: 'text', extends: message.extends.quote ? { quote: message.extends.quote } : {} } as M;
}

/** A message's frame as those clients can draw it: the same frame unless it carries a record. */
function drawable<F extends Extract<PushFrame, { type: 'simple' | 'group' }>>(frame: F): F {
  const data = renderable(frame.data);
  return data === frame.data ? frame : { ...frame, data };
}

/**
 * A poll as a text those clients can show (in the source locale, as they are in Chinese only): "投票
 * <question>", then each option numbered with its count.
 */
function pollText(poll: MessageOf<'poll'>['extends']): string {
  const lines = poll.options.map((o, i) => `${i + 1}. ${o.text} (${o.count})`);
  return [`${translate(DEFAULT_LOCALE, 'poll.raingad')} ${poll.question}`, ...lines].join('\n');
}

function forRaingad(frame: PushFrame, extras: PushExtras | undefined): ShownFrame | null {
  const replace = RAINGAD[frame.type] as Replacement<PushFrame['type']> | undefined;
  return replace ? replace(frame, extras) : frame;
}

/**
 * An announcement as the original `publishNotice` pushed it: a text to `admin_notice` (`is_group`
 * 2) whose content is the title, `extends {title, notice}`. Those clients are in Chinese only, so
 * the sender is named in the source locale.
 */
function announcementMessage(notice: AdminNotice): z.infer<typeof RaingadPushSchemas.simple> {
  return {
    id: `admin_notice-${notice.id}`,
    msg_id: notice.id,
    type: 'text',
    content: notice.title,
    sendTime: notice.create_time,
    toContactId: 'admin_notice',
    toUser: 'admin_notice',
    is_group: 2,
    status: 'succeed',
    is_read: 1,
    at: [],
    pid: 0,
    extends: { title: notice.title, notice: notice.notice },
    fromUser: { id: 'admin_notice', displayName: translate('zh-Hans', 'contact.adminNotice'), avatar: PICTURES.notice },
  };
}
