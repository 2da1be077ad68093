import {
  ContactExtends,
  groupNumber,
  LocationExtends,
  negotiateLocale,
  VIDEO_MAX_S,
  TEXT_MESSAGE_MAX,
  type ContactId,
  type FileItem,
  type Message,
  type RouteInput,
  withinGraphemes,
} from '@sparrow/protocol';
import { AnnouncementRepo } from '../system';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { Access } from '../access';
import type { Session } from '../auth';
import { EmojiRepo } from '../emoji';
import { FriendRepo, type FriendRow, toUserContact } from '../friend';
import { groupSetting, toGroupContact, GroupRepo, groupKey, Role, type GroupRow, type MemberRow } from '../group';
import { storageUrl } from '../../storage/storage';
import { cateOf, FileService } from '../upload';
import { UserRepo, type UserRow } from '../user';
import { decodeAt, encodeAt, parseJson, plainText, toMessage, type MessageContext, type Reader } from './presenter';
import { ChatType, MessageRepo, pairKey, selfKey, type ConversationRow, type MessageRow } from './repo';

/** Where a message goes, resolved from `toContactId` and checked. */
export type Target =
  | { kind: 'private'; chatKey: string; peer: UserRow }
  | { kind: 'group'; chatKey: string; group: GroupRow; member: MemberRow }
  | { kind: 'self'; chatKey: string };

/** A message ready to store: content cleaned, mentions and quote checked. */
interface Draft {
  clientId: string;
  type: string;
  content: string;
  extends: Record<string, unknown>;
  at: number[];
  pid: number;
  fileId: number;
}

/** Groups whose member ids are kept between sends. */
const MEMBER_LISTS_KEPT = 10_000;

const isUniqueViolation = (err: unknown) => /unique|duplicate key/i.test(String((err as Error)?.message ?? err));

/** Messages and conversations (api.md §3 `/enterprise/im/*`). */
export class MessageService {
  readonly messages: MessageRepo;
  private readonly users: UserRepo;
  private readonly groups: GroupRepo;
  private readonly friends: FriendRepo;
  private readonly stickers: EmojiRepo;
  private readonly announcements: AnnouncementRepo;
  private readonly access: Access;
  private readonly targetMembers = new WeakMap<Target, Promise<readonly number[]>>();
  private readonly memberLists = new Map<number, { version: number; ids: readonly number[] }>();
  readonly files: FileService;

  constructor(private readonly ctx: AppContext) {
    this.files = new FileService(ctx);
    this.messages = new MessageRepo(ctx.db, ctx.dialect);
    this.users = new UserRepo(ctx.db);
    this.groups = new GroupRepo(ctx.db);
    this.friends = new FriendRepo(ctx.db);
    this.stickers = new EmojiRepo(ctx.db);
    this.announcements = new AnnouncementRepo(ctx.db);
    this.access = new Access(ctx);
  }

  reader(user: UserRow): Reader {
    return { userId: user.id, locale: negotiateLocale(user.language || undefined) };
  }

  /** Resolves a conversation for reading: private with anyone known, a group I am in, my own. */
  async resolve(session: Session, toContactId: ContactId | string | number): Promise<Target> {
    if (toContactId === -1 || toContactId === '-1') return { kind: 'self', chatKey: selfKey(session.userId) };
    if (typeof toContactId === 'string' && toContactId.startsWith('group-')) {
      const { group, member } = await this.access.requireMember(session.userId, groupNumber(toContactId));
      return { kind: 'group', chatKey: groupKey(group.id), group, member };
    }
    const peerId = Number(toContactId);
    if (!Number.isInteger(peerId) || peerId <= 0) throw new AppError('NotAllowedTarget');
    if (peerId === session.userId) return { kind: 'self', chatKey: selfKey(session.userId) };
    const peer = await this.users.byId(peerId);
    const chatKey = pairKey(session.userId, peerId);
    // A disabled account reads as a missing one (as getUserInfo answers), except in a chat we already share.
    if (!peer || (peer.status !== 1 && !(await this.messages.conversation(session.userId, chatKey))))
      throw new AppError('UserNotFound');
    return { kind: 'private', chatKey, peer };
  }

  /** The first message id a reader may see in a chat (cleared history, joined without history). */
  private async floor(session: Session, target: Target): Promise<number> {
    const conv = await this.messages.conversation(session.userId, target.chatKey);
    let floor = conv?.clear_msg_id ?? 0;
    if (target.kind === 'group' && !groupSetting(target.group).history)
      floor = Math.max(floor, target.member.join_msg_id);
    return floor;
  }

  /** The rules of sendMessage, in api.md's order; throws the first that refuses. */
  async authorize(session: Session, target: Target): Promise<void> {
    const { chatInfo, sysInfo } = this.ctx.config.get();
    if (target.kind === 'private') {
      if (chatInfo.simpleChat !== 1) throw new AppError('PrivateChatDisabled');
      if (target.peer.status !== 1) throw new AppError('UserNotFound');
      if (sysInfo.runMode === 2 && !(await this.friends.row(session.userId, target.peer.id)))
        throw new AppError('NotFriendChat');
    }
    if (target.kind === 'group') {
      const { nospeak } = groupSetting(target.group);
      if (nospeak === 1 && target.member.role === Role.Member) throw new AppError('GroupNoSpeakAdmins');
      if (nospeak === 2 && target.member.role !== Role.Owner) throw new AppError('GroupNoSpeakOwner');
      if (target.member.no_speak_until > this.ctx.now()) {
        const until = target.member.no_speak_until;
        const locale = negotiateLocale(session.user.language || undefined);
        throw new AppError(
          'Muted',
          { until: new Date(until).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' }) },
          { no_speak_until: until },
        );
      }
    }
    await this.ctx.limits.sendMessage(session.userId, chatInfo.sendInterval);
  }

  /** Cleans what the client sent into what is stored. */
  private async draft(session: Session, target: Target, body: RouteInput<'sendMessage'>): Promise<Draft> {
    let content = body.content;
    if (body.type === 'text') {
      content = plainText(content);
      if (!content.trim() || !withinGraphemes(content, TEXT_MESSAGE_MAX)) {
        throw new AppError('Validation', {}, { fields: ['content'] });
      }
    } else if (body.type === 'emoji') {
      const sticker = await this.stickerFile(session, body.file_id ?? Number(body.extends.file_id));
      if (sticker)
        return this.finish(session, target, body, storageUrl(sticker.storage_key), { file_id: sticker.id }, sticker.id);
      if (!/^(\/storage\/|https?:\/\/)\S{1,500}$/.test(content.trim()))
        throw new AppError('Validation', {}, { fields: ['content'] });
      content = content.trim();
    } else if (body.type === 'location') {
      const loc = LocationExtends.safeParse(body.extends);
      if (!loc.success) throw new AppError('Validation', {}, { fields: ['extends'] });
      return this.finish(session, target, body, `[位置] ${loc.data.name}`, { ...loc.data }, 0);
    } else if (body.type === 'contact') {
      const card = ContactExtends.safeParse(body.extends);
      const user = card.success ? await this.users.byId(card.data.id) : undefined;
      if (!user || user.status !== 1) throw new AppError('UserNotFound', {}, { fields: ['extends'] });
      return this.finish(
        session,
        target,
        body,
        `[个人名片] ${user.realname}`,
        { id: user.id, displayName: user.realname, avatar: user.avatar },
        0,
      );
    } else {
      return this.mediaDraft(session, target, body);
    }
    return this.finish(session, target, body, content, {}, 0);
  }

  /**
   * The image a sticker message shows, when it is one I may send: in my collection or uploaded by
   * me. The message then records the file, so that whoever receives it can collect it in turn.
   */
  private async stickerFile(session: Session, fileId: number) {
    if (!Number.isInteger(fileId) || fileId <= 0) return undefined;
    const file = await this.files.byId(fileId);
    if (!file || cateOf(file.ext) !== 2) return undefined;
    if (
      (await this.stickers.collected(session.userId, fileId)) ||
      (await this.files.uploadedName(session.userId, fileId)) !== null
    )
      return file;
    return undefined;
  }

  /** Image, voice, video and file messages: a file I uploaded, described by what the server measured. */
  private async mediaDraft(session: Session, target: Target, body: RouteInput<'sendMessage'>): Promise<Draft> {
    const fileId = body.file_id ?? Number(body.extends.file_id);
    const file = Number.isInteger(fileId) && fileId > 0 ? await this.files.byId(fileId) : undefined;
    const name = file ? await this.files.uploadedName(session.userId, file.id) : null;
    if (!file || name === null) throw new AppError('NotFound', {}, { fields: ['file_id'] });
    const cate = cateOf(file.ext);
    const fits =
      body.type === 'image'
        ? cate === 2
        : body.type === 'voice'
          ? cate === 3 || file.ext === 'webm'
          : body.type === 'video'
            ? cate === 4
            : true;
    if (!fits) throw new AppError('FileTypeForbidden');
    const src = storageUrl(file.storage_key);
    const clientSeconds = Number(body.extends.duration);
    const seconds = file.duration
      ? Math.round(file.duration / 100) / 10
      : Number.isFinite(clientSeconds)
        ? clientSeconds
        : 0;
    if (body.type === 'video' && seconds > VIDEO_MAX_S + 0.5) throw new AppError('VideoTooLong', { max: VIDEO_MAX_S });
    const poster =
      typeof body.extends.poster === 'string' && body.extends.poster.startsWith('/storage/') ? body.extends.poster : '';
    const clientSize = (k: string) => (Number.isFinite(Number(body.extends[k])) ? Number(body.extends[k]) : 0);
    const ext: Record<string, unknown> =
      body.type === 'image'
        ? { width: file.width, height: file.height, thumb: file.thumb, file_id: file.id }
        : body.type === 'voice'
          ? { duration: seconds, file_id: file.id }
          : body.type === 'video'
            ? { duration: seconds, width: clientSize('width'), height: clientSize('height'), poster, file_id: file.id }
            : { ext: file.ext, name, size: file.size, file_id: file.id };
    return this.finish(session, target, body, src, ext, file.id);
  }

  /** Mentions and quote, checked against the chat; the draft as it will be stored. */
  private async finish(
    session: Session,
    target: Target,
    body: RouteInput<'sendMessage'>,
    content: string,
    ext: Record<string, unknown>,
    fileId: number,
  ): Promise<Draft> {
    let at: number[] = [];
    if (target.kind === 'group' && body.at.length) {
      const members = new Set(await this.membersOf(target));
      const mayAll = target.member.role !== Role.Member;
      at = body.at.filter((id) => (id === 0 ? mayAll : members.has(id)));
    }
    let pid = 0;
    if (body.pid) {
      const quoted = await this.messages.byId(body.pid);
      if (
        quoted &&
        quoted.chat_key === target.chatKey &&
        !quoted.is_deleted &&
        quoted.id > (await this.floor(session, target))
      )
        pid = quoted.id;
    }
    return { clientId: body.id, type: body.type, content, extends: ext, at, pid, fileId };
  }

  /** sendMessage: idempotent on (sender, id); commit, then publish. */
  async send(session: Session, body: RouteInput<'sendMessage'>, socketClientId?: string): Promise<Message> {
    // A retry answers the stored message before any rule or limit sees it: the rules may refuse
    // it now (muted since), and a retry must not use up the sender's rate limit.
    const existing = await this.messages.bySender(session.userId, body.id);
    if (existing) return this.present(existing, session.user);
    const target = await this.resolve(session, body.toContactId);
    await this.authorize(session, target);
    const draft = await this.draft(session, target, body);
    const stored = await this.store(session.userId, target, draft);
    if (!stored.fresh) return this.present(stored.row, session.user);
    const mine = await this.publish(stored.row, target, session.user, socketClientId, stored.sides);
    return mine ?? this.present(stored.row, session.user);
  }

  /** Stores a message; `sides` are the conversation rows of a private chat as the message left them. */
  async store(
    senderId: number,
    target: Target,
    draft: Draft,
  ): Promise<{ row: MessageRow; fresh: boolean; sides?: Map<number, ConversationRow> }> {
    // Whom a group message goes to is decided as it is stored, not when the request began.
    if (target.kind === 'group') await this.currentMembers(target);
    let mentioned: readonly number[] = [];
    if (target.kind === 'group' && draft.at.length) {
      mentioned = draft.at.includes(0) ? await this.membersOf(target) : draft.at;
    }
    try {
      const stored = await this.messages.store(
        {
          client_id: draft.clientId,
          from_user: senderId,
          chat_type:
            target.kind === 'private' ? ChatType.Private : target.kind === 'group' ? ChatType.Group : ChatType.Self,
          to_id: target.kind === 'private' ? target.peer.id : target.kind === 'group' ? target.group.id : senderId,
          chat_key: target.chatKey,
          type: draft.type,
          content: draft.content,
          extends: JSON.stringify(draft.extends),
          at: encodeAt(draft.at),
          pid: draft.pid,
          file_id: draft.fileId,
          is_undo: 0,
          is_deleted: 0,
          create_time: this.ctx.now(),
        },
        mentioned,
      );
      return { ...stored, fresh: true };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const row = await this.messages.bySender(senderId, draft.clientId);
      if (!row) throw err;
      return { row, fresh: false };
    }
  }

  /**
   * A group target's member ids, read once for all the steps of one send, and kept between sends:
   * a list read with version v serves a request whose group row shows v, as if it had read both
   * at once (every send reads the group row; every join and leave raises the version).
   */
  private membersOf(target: Extract<Target, { kind: 'group' }>): Promise<readonly number[]> {
    const { group } = target;
    const known = this.memberLists.get(group.id);
    if (known && known.version === group.member_version) return Promise.resolve(known.ids);
    let ids = this.targetMembers.get(target);
    if (!ids) {
      const read = this.groups.memberList(group.id);
      ids = read.then((list) => list.ids);
      this.targetMembers.set(target, ids);
      void read.then(
        (list) => {
          if (this.memberLists.size >= MEMBER_LISTS_KEPT)
            this.memberLists.delete(this.memberLists.keys().next().value!);
          this.memberLists.set(group.id, list);
        },
        () => undefined,
      );
    }
    return ids;
  }

  /** Brings a group target's member-list version up to date, dropping the list read for an older one. */
  private async currentMembers(target: Extract<Target, { kind: 'group' }>): Promise<void> {
    const version = await this.groups.memberVersion(target.group.id);
    if (version === target.group.member_version) return;
    target.group = { ...target.group, member_version: version };
    this.targetMembers.delete(target);
  }

  /** Who holds a message: the pair, the group's members, or me. */
  async holders(row: MessageRow): Promise<number[]> {
    if (row.chat_type === ChatType.Group) return this.groups.memberIds(row.to_id);
    if (row.chat_type === ChatType.Private) return [row.from_user, row.to_id];
    return [row.from_user];
  }

  /**
   * Posts a line of the group's own (an event line: creation, invitations, roles…; or the text
   * that announces a new notice) from `actorId`, with `member` as the membership it is posted
   * under. The send path's rules are not asked: the group module has checked the change it tells of.
   */
  async postToGroup(
    actorId: number,
    group: GroupRow,
    member: MemberRow,
    line: { type: 'event' | 'text'; content: string; extends: Record<string, unknown>; at?: number[] },
  ): Promise<void> {
    const target: Target = { kind: 'group', chatKey: groupKey(group.id), group, member };
    const stored = await this.store(actorId, target, {
      clientId: randomUUID(),
      type: line.type,
      content: line.content,
      extends: line.extends,
      at: line.at ?? [],
      pid: 0,
      fileId: 0,
    });
    await this.publish(stored.row, target, actorId);
  }

  /**
   * Pushes a new message: `simple` to the peer and my other sockets, `group` to the members.
   * Answers the message as the sender sees it (without `contactInfo`) when it was presented on the
   * way, so that sendMessage need not present it again.
   */
  async publish(
    row: MessageRow,
    target: Target,
    from: UserRow | number,
    exceptClientId?: string,
    sides?: Map<number, ConversationRow>,
  ): Promise<Message | undefined> {
    const sender = typeof from === 'number' ? await this.users.byId(from) : from;
    if (!sender) return undefined;
    const senderId = sender.id;
    if (target.kind === 'private') {
      const peer = target.peer;
      const rows = sides ?? (await this.messages.rowsIn(row.chat_key, [senderId, peer.id]));
      const friends = await this.friends.between(senderId, peer.id);
      const online = await this.ctx.realtime.online([senderId, peer.id]);
      const contact = (viewer: UserRow, other: UserRow) =>
        this.contactFor(other, friends.get(viewer.id), online.has(other.id), rows.get(viewer.id));
      const toPeer = await this.present(row, peer, {
        contactInfo: contact(peer, sender),
        users: new Map([[senderId, sender]]),
      });
      await this.ctx.realtime.publish([peer.id], { type: 'simple', data: toPeer });
      const mine = await this.present(row, sender, { peerReadTo: rows.get(peer.id)?.read_msg_id ?? 0 });
      await this.ctx.realtime.publish(
        [senderId],
        { type: 'simple', data: { ...mine, contactInfo: contact(sender, peer) } },
        exceptClientId,
      );
      return mine;
    }
    if (target.kind === 'self') {
      const mine = await this.present(row, sender);
      await this.ctx.realtime.publish([senderId], { type: 'simple', data: mine }, exceptClientId);
      return mine;
    }
    const members = await this.membersOf(target);
    const contactInfo = toGroupContact(target.group, Role.Member, members.length);
    if (row.type === 'event') {
      for (const id of members) {
        const user = id === senderId ? sender : await this.users.byId(id);
        if (!user) continue;
        const data = await this.present(row, user, { contactInfo });
        await this.ctx.realtime.publish([id], { type: 'group', data }, id === senderId ? exceptClientId : undefined);
      }
      return undefined;
    }
    // The sender's role and group nickname came with the target; no quote needs another member's.
    const own =
      row.pid === 0 && target.member.user_id === senderId
        ? { members: new Map([[senderId, { role: target.member.role, nickname: target.member.nickname }]]) }
        : {};
    const mine = await this.present(row, sender, own);
    const data = { ...mine, contactInfo };
    await this.ctx.realtime.publish(
      members.filter((id) => id !== senderId),
      { type: 'group', data },
    );
    await this.ctx.realtime.publish([senderId], { type: 'group', data }, exceptClientId);
    return mine;
  }

  /** `other` as a contact row of the viewer's list (their friend row of `other`, their view of the chat). */
  private contactFor(other: UserRow, friend: FriendRow | undefined, online: boolean, conv?: ConversationRow) {
    const contact = toUserContact(other, friend, online);
    if (conv)
      Object.assign(contact, {
        unread: conv.unread,
        is_top: conv.is_top,
        is_notice: conv.is_notice,
        is_at: conv.is_at,
      });
    return contact;
  }

  /**
   * Presents rows for one reader, loading senders, group roles, quotes and read marks in bulk;
   * `extra.users` (and `extra.members`, a group's) are what the caller already holds, not loaded again.
   */
  async presentMany(rows: MessageRow[], readerRow: UserRow, extra: Partial<MessageContext> = {}): Promise<Message[]> {
    const { users: known, ...context } = extra;
    const ids = new Set<number>();
    const quoteIds = rows.map((r) => r.pid).filter(Boolean);
    const quotes = await this.messages.byIds(quoteIds);
    for (const r of [...rows, ...quotes.values()]) ids.add(r.from_user);
    const users = new Map<number, UserRow>();
    for (const id of ids) {
      const u = id === readerRow.id ? readerRow : (known?.get(id) ?? (await this.users.byId(id)));
      if (u) users.set(id, u);
    }
    const groupIds = [...new Set(rows.filter((r) => r.chat_type === ChatType.Group).map((r) => r.to_id))];
    const membersByGroup = new Map<number, Map<number, { role: number; nickname: string }>>();
    if (!context.members) {
      for (const gid of groupIds) {
        membersByGroup.set(gid, await this.groups.rolesOf(gid, [...ids]));
      }
    }
    const peerRead = new Map<string, number>();
    for (const r of rows) {
      if (context.peerReadTo !== undefined) break;
      if (r.chat_type !== ChatType.Private || r.from_user !== readerRow.id || peerRead.has(r.chat_key)) continue;
      const peerConv = await this.messages.conversation(r.to_id, r.chat_key);
      peerRead.set(r.chat_key, peerConv?.read_msg_id ?? 0);
    }
    const reader = this.reader(readerRow);
    return rows.map((r) =>
      toMessage(r, {
        reader,
        users,
        quotes,
        ...(r.chat_type === ChatType.Group && { members: membersByGroup.get(r.to_id) }),
        ...(peerRead.has(r.chat_key) && { peerReadTo: peerRead.get(r.chat_key) }),
        ...context,
      }),
    );
  }

  async present(row: MessageRow, readerRow: UserRow, extra: Partial<MessageContext> = {}): Promise<Message> {
    const [message] = await this.presentMany([row], readerRow, extra);
    return message!;
  }

  async list(session: Session, body: RouteInput<'getMessageList'>): Promise<{ items: Message[]; total: number }> {
    if (body.toContactId === 'system' || body.toContactId === 'admin_notice') return { items: [], total: 0 };
    const target = await this.resolve(session, body.toContactId);
    const floor = await this.floor(session, target);
    const types = body.type === 'media' ? ['image', 'video'] : body.type ? [body.type] : undefined;
    const { rows, total } = await this.messages.list(
      { userId: session.userId, chatKey: target.chatKey, floor },
      {
        limit: body.limit,
        offset: (body.page - 1) * body.limit,
        lastId: body.last_id,
        afterId: body.after_id,
        types,
        keywords: body.keywords,
        mentioning: body.is_at ? session.userId : undefined,
        fromUser: body.from_user,
      },
    );
    return { items: await this.presentMany(rows, session.user), total };
  }

  async sync(session: Session, body: RouteInput<'sync'>): Promise<{ items: Message[]; remaining: number }> {
    const { rows, remaining } = await this.messages.since(session.userId, body.after_id, body.limit);
    return { items: await this.presentMany(rows, session.user), remaining };
  }

  /** A message I can see, by msg_id or by client id; refused alike when missing or not mine to see. */
  async visible(session: Session, ref: number | string): Promise<{ row: MessageRow; target: Target }> {
    const candidates = typeof ref === 'number' ? [await this.messages.byId(ref)] : await this.messages.byClientId(ref);
    const ordered = candidates
      .filter((r): r is MessageRow => r !== undefined)
      .sort((a, b) => Number(b.from_user === session.userId) - Number(a.from_user === session.userId));
    for (const row of ordered) {
      if (row.is_deleted) continue;
      const holders = await this.holders(row);
      if (!holders.includes(session.userId)) continue;
      const target = await this.resolve(
        session,
        row.chat_type === ChatType.Group
          ? `group-${row.to_id}`
          : row.chat_type === ChatType.Self
            ? -1
            : row.from_user === session.userId
              ? row.to_id
              : row.from_user,
      );
      if (row.id <= (await this.floor(session, target))) continue;
      if (await this.messages.isHidden(session.userId, row.id)) continue;
      return { row, target };
    }
    throw new AppError('MessageNotFound');
  }

  async markRead(session: Session, body: RouteInput<'setMsgIsRead'>, socketClientId?: string): Promise<void> {
    if (body.toContactId === 'system' || body.toContactId === 'admin_notice')
      return this.markPseudoRead(session, body.toContactId);
    const target = await this.resolve(session, body.toContactId);
    const msgId = body.msg_id || (await this.messages.newestId(target.chatKey));
    await this.messages.markRead(session.userId, target.chatKey, msgId);
    if (target.kind === 'private') {
      await this.ctx.realtime.publish([target.peer.id], {
        type: 'isRead',
        data: { toContactId: session.userId, msg_id: msgId },
      });
    }
    await this.ctx.realtime.publish(
      [session.userId],
      { type: 'readAll', data: { toContactId: body.toContactId as ContactId, msg_id: msgId, is_group: body.is_group } },
      socketClientId,
    );
  }

  private async markPseudoRead(session: Session, key: 'system' | 'admin_notice'): Promise<void> {
    if (key === 'admin_notice') {
      await this.messages.upsertConversation(session.userId, 'admin_notice', {
        read_msg_id: await this.announcements.newestId(),
      });
    }
  }

  async readAt(session: Session, toContactId: ContactId | string | number): Promise<void> {
    const target = await this.resolve(session, toContactId);
    await this.messages.upsertConversation(session.userId, target.chatKey, { is_at: 0 });
  }

  /** Withdraws a message: the sender within redoTime; in groups admins over members, the owner over all. */
  async undo(session: Session, ref: number | string): Promise<void> {
    const { row, target } = await this.visible(session, ref);
    if (row.type === 'event' || row.is_undo) throw new AppError('MessageNotFound');
    const mine = row.from_user === session.userId;
    let privileged = false;
    if (target.kind === 'group' && !mine) {
      const author = await this.groups.member(target.group.id, row.from_user);
      const myRole = target.member.role;
      privileged = myRole === Role.Owner || (myRole === Role.Admin && (author?.role ?? Role.Member) === Role.Member);
    }
    if (!mine && !privileged) throw new AppError('NotYourMessage');
    const redoS = this.ctx.config.get().chatInfo.redoTime;
    if (
      mine &&
      !(target.kind === 'group' && target.member.role !== Role.Member) &&
      this.ctx.now() - row.create_time > redoS * 1000
    ) {
      throw new AppError('UndoTooLate', { minutes: Math.round(redoS / 60) });
    }
    const author = await this.users.byId(row.from_user);
    const ext = {
      event: 'undo',
      user_id: row.from_user,
      name: author?.realname ?? '',
      by: session.userId,
      by_name: session.user.realname,
      original_type: row.type,
      ...(mine && row.type === 'text' && { original: row.content }),
    };
    await this.messages.update(row.id, {
      is_undo: 1,
      type: 'event',
      content: `${author?.realname ?? ''}撤回了一条消息`,
      extends: JSON.stringify(ext),
      at: '',
    });
    await this.files.release(row.file_id);
    const updated = (await this.messages.byId(row.id))!;
    for (const id of await this.holders(updated)) {
      const user = id === session.userId ? session.user : await this.users.byId(id);
      if (!user) continue;
      const data = await this.present(updated, user);
      if (id !== session.userId) delete data.extends.original;
      await this.ctx.realtime.publish([id], { type: 'undoMessage', data });
    }
  }

  /** Deletes a message for everyone (the sender, when dbDelMsg is on). */
  async deleteForAll(session: Session, ref: number | string): Promise<void> {
    if (this.ctx.config.get().chatInfo.dbDelMsg !== 1) throw new AppError('DeleteDisabled');
    const { row } = await this.visible(session, ref);
    if (row.from_user !== session.userId) throw new AppError('NotYourMessage');
    await this.messages.update(row.id, { is_deleted: 1 });
    await this.files.release(row.file_id);
    const holders = await this.holders(row);
    for (const id of holders) {
      const toContactId: ContactId =
        row.chat_type === ChatType.Group
          ? `group-${row.to_id}`
          : row.chat_type === ChatType.Self
            ? -1
            : id === row.from_user
              ? row.to_id
              : row.from_user;
      await this.ctx.realtime.publish([id], {
        type: 'delMessage',
        data: { id: row.client_id, msg_id: row.id, toContactId },
      });
    }
  }

  /** Hides a message for me only. */
  async hide(session: Session, ref: number | string): Promise<void> {
    const { row } = await this.visible(session, ref);
    await this.messages.hide(session.userId, row.id);
  }

  /**
   * Takes a chat off my list until a newer message arrives; what it held counts as read (a private
   * chat's counter is cleared; a group's read position moves to its newest message).
   */
  async deleteChat(session: Session, id: ContactId | string | number): Promise<void> {
    const target = await this.resolve(session, id);
    const [view] = await this.messages.viewsOf(session.userId, [target.chatKey]);
    const newest = view?.newestId ?? (await this.messages.newestId(target.chatKey));
    await this.messages.upsertConversation(session.userId, target.chatKey, {
      hidden: 1,
      is_at: 0,
      last_msg_id: newest,
      ...(target.kind === 'group' ? { read_msg_id: Math.max(view?.row.read_msg_id ?? 0, newest) } : { unread: 0 }),
    });
  }

  async setTop(session: Session, body: RouteInput<'setChatTop'>): Promise<void> {
    const target = await this.resolve(session, body.id);
    await this.messages.upsertConversation(session.userId, target.chatKey, { is_top: body.is_top });
    await this.ctx.realtime.publish([session.userId], {
      type: 'setChatTop',
      data: { id: body.id as ContactId, is_top: body.is_top ? 1 : 0, is_group: body.is_group },
    });
  }

  async setNotice(session: Session, body: RouteInput<'isNotice'>): Promise<void> {
    const target = await this.resolve(session, body.id);
    await this.messages.upsertConversation(session.userId, target.chatKey, { is_notice: body.is_notice });
    await this.ctx.realtime.publish([session.userId], {
      type: 'setIsNotice',
      data: { id: body.id as ContactId, is_notice: body.is_notice ? 1 : 0, is_group: body.is_group },
    });
  }

  /** Forwards a message I can see to 1–5 users or groups; every copy obeys the rules of sendMessage. */
  async forward(session: Session, body: RouteInput<'forwardMessage'>): Promise<void> {
    const { row } = await this.visible(session, body.msg_id);
    if (row.type === 'event' || row.type === 'webrtc') throw new AppError('NotAllowedTarget');
    const targets: Target[] = [];
    for (const to of new Set(body.user_ids.map(String))) {
      const target = await this.resolve(session, /^-?\d+$/.test(to) ? Number(to) : to);
      await this.authorize(session, target);
      targets.push(target);
    }
    const ext = parseJson(row.extends);
    delete ext.quote;
    for (const target of targets) {
      const stored = await this.store(session.userId, target, {
        clientId: randomUUID(),
        type: row.type,
        content: row.content,
        extends: ext,
        at: [],
        pid: 0,
        fileId: row.file_id,
      });
      await this.publish(stored.row, target, session.userId);
    }
  }

  /** Files I sent (is_mine 1) or received, newest first (the spec's file management). */
  async fileList(session: Session, body: RouteInput<'fileList'>): Promise<{ items: FileItem[]; total: number }> {
    const { rows, total } = await this.messages.files(session.userId, body.is_mine === 1, {
      cate: body.cate,
      keywords: body.keywords,
      limit: body.limit,
      offset: (body.page - 1) * body.limit,
    });
    const messages = await this.presentMany(rows, session.user);
    const items = rows.map((row, i): FileItem => {
      const m = messages[i]!;
      const ext = m.extends;
      const name = row.type === 'file' ? String(ext.name ?? '') : (row.content.split('/').pop() ?? '');
      return {
        msg_id: row.id,
        file_id: row.file_id,
        name,
        size: Number(ext.size ?? row.file_size ?? 0),
        ext: row.file_ext,
        cate: cateOf(row.file_ext),
        src: row.content,
        create_time: row.create_time,
        fromUser: m.fromUser,
        toContactId: m.toContactId,
      };
    });
    return { items, total };
  }

  /** Mentions of me in a message, as the client shows "[有人@我]". */
  mentions(row: MessageRow, userId: number): boolean {
    const at = decodeAt(row.at);
    return at.includes(0) || at.includes(userId);
  }
}
