import { z } from 'zod';
import type { Contact, ContactId, GlobalConfig, GroupSetting, Message } from './entities';

/** The socket path (api.md §4). */
export const SOCKET_PATH = '/wss';

/** Frames a client may send (api.md §4). Anything else is ignored and counted. */
export const ClientFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('close') }),
  z.object({
    type: z.literal('bindUid'),
    user_id: z.coerce.number().int().positive(),
    token: z.string().min(1).max(200),
  }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

/** Payload of each push event (api.md §4). */
export interface PushPayloads {
  isOnline: { id: number; is_online: 0 | 1 };
  offline: { id: number; client_id: string; isMobile: boolean };
  updateConfig: GlobalConfig;
  /** A private message (or a notice from `system`). */
  simple: Message;
  /** A new friend: the contact row to add. */
  appendContact: Contact;
  /** A group is gone for me, or (old clients) an ex-friend with group_id = their user id. */
  removeGroup: { group_id: string | number };
  /** A group message. */
  group: Message;
  setChatTop: { id: ContactId; is_top: 0 | 1; is_group: number };
  setIsNotice: { id: ContactId; is_notice: 0 | 1; is_group: number };
  /** I joined a group: its contact row. */
  addGroup: Contact;
  addGroupUser: { group_id: string; user_ids: number[]; avatar: string };
  /** A message was withdrawn: it is now an `event` line. */
  undoMessage: Message;
  delMessage: { id: string; msg_id: number; toContactId: ContactId };
  /** The peer read my messages up to msg_id. */
  isRead: { toContactId: ContactId; msg_id: number };
  /** I read a conversation on another device. */
  readAll: { toContactId: ContactId; msg_id: number; is_group: number };
  setManager: { group_id: string; user_id: number; role: number; avatar?: string };
  /** A group's picture was uploaded by its owner or an admin. */
  groupAvatar: { group_id: string; avatar: string };
  removeUser: { group_id: string; user_id: number; avatar?: string };
  setNoSpeak: { group_id: string; user_id: number; no_speak_until: number };
  editGroupName: { id: string; displayName: string; editUserName: string };
  setNotice: { group_id: string; notice: string };
  groupSetting: { group_id: string; setting: GroupSetting };
  changeOwner: { group_id: string; user_id: number };
  clearMessage: { group_id: string };
  /** A new system announcement. */
  adminNotice: { id: number; title: string; notice: string; create_time: number };
}

/**
 * Schemas the client parses each `{type, time, data}` frame with; one per push event. They check
 * the fields a client relies on and let the rest through.
 */
export const PushEventSchemas: { [E in keyof PushPayloads]: z.ZodType } = {
  isOnline: loose({ id: z.number(), is_online: z.union([z.literal(0), z.literal(1)]) }),
  offline: loose({ id: z.number(), client_id: z.string(), isMobile: z.boolean() }),
  updateConfig: loose({ sysInfo: z.looseObject({}), chatInfo: z.looseObject({}) }),
  simple: loose({
    id: z.string(),
    msg_id: z.number(),
    type: z.string(),
    content: z.string(),
    sendTime: z.number(),
    toContactId: z.union([z.number(), z.string()]),
    fromUser: z.looseObject({ id: z.union([z.number(), z.string()]) }),
  }),
  appendContact: loose({ id: z.union([z.number(), z.string()]), displayName: z.string() }),
  removeGroup: loose({ group_id: z.union([z.number(), z.string()]) }),
  group: loose({
    id: z.string(),
    msg_id: z.number(),
    type: z.string(),
    toContactId: z.string(),
    fromUser: z.looseObject({}),
  }),
  setChatTop: loose({ id: z.union([z.number(), z.string()]), is_top: z.number() }),
  setIsNotice: loose({ id: z.union([z.number(), z.string()]), is_notice: z.number() }),
  addGroup: loose({ id: z.string(), displayName: z.string() }),
  addGroupUser: loose({ group_id: z.string(), user_ids: z.array(z.number()) }),
  undoMessage: loose({ id: z.string(), msg_id: z.number(), type: z.literal('event') }),
  delMessage: loose({ id: z.string(), msg_id: z.number(), toContactId: z.union([z.number(), z.string()]) }),
  isRead: loose({ toContactId: z.union([z.number(), z.string()]), msg_id: z.number() }),
  readAll: loose({ toContactId: z.union([z.number(), z.string()]), msg_id: z.number() }),
  adminNotice: loose({ id: z.number(), title: z.string() }),
  setManager: loose({ group_id: z.string(), user_id: z.number(), role: z.number() }),
  groupAvatar: loose({ group_id: z.string(), avatar: z.string() }),
  removeUser: loose({ group_id: z.string(), user_id: z.number() }),
  setNoSpeak: loose({ group_id: z.string(), user_id: z.number(), no_speak_until: z.number() }),
  editGroupName: loose({ id: z.string(), displayName: z.string() }),
  setNotice: loose({ group_id: z.string(), notice: z.string() }),
  groupSetting: loose({ group_id: z.string(), setting: z.looseObject({}) }),
  changeOwner: loose({ group_id: z.string(), user_id: z.number() }),
  clearMessage: loose({ group_id: z.string() }),
};

export type PushEventName = keyof PushPayloads;
export type PushPayload<E extends PushEventName> = PushPayloads[E];
export type PushEvent = {
  [E in PushEventName]: { type: E; data: PushPayloads[E] };
}[PushEventName];

/** A push frame as it travels: `{type, time (s), data}`. */
export type PushFrame = PushEvent & { time: number };

/** Frames the server sends outside the push events: init, ping, pong. */
export const ControlFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), client_id: z.string() }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('pong'), multiport: z.boolean().optional() }),
]);
export type ControlFrame = z.infer<typeof ControlFrameSchema>;

/** Every frame a server sends, told apart by its `type`. */
const ServerFrameSchema = z.discriminatedUnion('type', [
  ...ControlFrameSchema.options,
  ...Object.entries(PushEventSchemas).map(([type, data]) =>
    z.object({ type: z.literal(type), time: z.number(), data }),
  ),
]);

/** Parses a server frame; null when it is neither a control frame nor a known push event. */
export function parseServerFrame(raw: unknown): ControlFrame | PushFrame | null {
  const r = ServerFrameSchema.safeParse(raw);
  return r.success ? (r.data as ControlFrame | PushFrame) : null;
}
