import { GroupRoles, withdrawal } from '@sparrow/protocol';
import type { ContactId, EventLine, FileItem, Message, RouteInput } from '@sparrow/protocol';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { contactIdOf, type Access } from '../access';
import type { Session } from '../auth';
import type { ConfigService } from '../system';
import { cateOf, type FileService } from '../upload';
import type { Hydrator } from './hydrate';
import { isOwnPat, withdrawPat } from './pat';
import type { ReceiptService } from './receipts';

/**
 * The most messages a read receipt lists for Raingad clients: they mark read those they hold, and
 * hold a page or two of the conversation; the rest show read when next loaded.
 */
const READ_LISTED = 100;

/** What MessageService is built from. */
export interface MessageParts {
  repos: Pick<Repos, 'messages' | 'history' | 'conversations' | 'announcements' | 'groups' | 'users' | 'pins'>;
  access: Access;
  config: ConfigService;
  realtime: Realtime;
  now: () => number;
}

/** Reading and managing messages and conversations (docs/protocol.md §3 `/enterprise/im/*`); sending is `SendPipeline`. */
export class MessageService {
  constructor(
    private readonly ctx: MessageParts,
    private readonly hydrator: Hydrator,
    private readonly files: FileService,
    private readonly receipts: Pick<ReceiptService, 'onRead'>,
  ) {}

  async list(session: Session, body: RouteInput<'getMessageList'>): Promise<{ items: Message[]; total: number }> {
    if (body.toContactId === 'system' || body.toContactId === 'admin_notice') return { items: [], total: 0 };
    const target = await this.ctx.access.chat(session, body.toContactId);
    const floor = await this.ctx.access.floor(session.userId, target);
    const types = body.type === 'media' ? ['image', 'video'] : body.type ? [body.type] : undefined;
    // A message of another chat, or one I may not see, is answered as a missing one.
    const around =
      body.around_id === undefined ? undefined : (await this.ctx.access.message(session, body.around_id)).row;
    if (around && around.chat_key !== target.chatKey) throw new AppError('MessageNotFound');
    const { rows, total } = await this.ctx.repos.history.list(
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
        aroundId: around?.id,
        startTime: body.start_time,
        endTime: body.end_time,
      },
    );
    return { items: await this.hydrator.presentMany(rows, session.user), total };
  }

  async sync(session: Session, body: RouteInput<'sync'>): Promise<{ items: Message[]; remaining: number }> {
    const { rows, remaining } = await this.ctx.repos.history.since(session.userId, body.after_id, body.limit);
    return { items: await this.hydrator.presentMany(rows, session.user), remaining };
  }

  async markRead(session: Session, body: RouteInput<'setMsgIsRead'>, socketClientId?: string): Promise<void> {
    if (body.toContactId === 'system' || body.toContactId === 'admin_notice')
      return this.markPseudoRead(session, body.toContactId);
    const target = await this.ctx.access.chat(session, body.toContactId);
    // Never past the chat's newest: a mark beyond it would count every later message read unseen.
    const newest = await this.ctx.repos.messages.newestId(target.chatKey);
    const msgId = body.msg_id ? Math.min(body.msg_id, newest) : newest;
    const readBefore = await this.ctx.repos.conversations.markRead(session.userId, target.chatKey, msgId);
    if (target.kind === 'private') {
      // Raingad clients are told which messages were read, whole (`present.ts`); Sparrow's up to where.
      const named = (body.messages ?? []).map((m) => m.id);
      const read =
        readBefore === null || (readBefore >= msgId && named.length === 0)
          ? []
          : await this.ctx.repos.conversations.justRead(
              target.chatKey,
              target.peer.id,
              { afterId: readBefore, upTo: msgId, named },
              READ_LISTED,
            );
      await this.ctx.realtime.publish(
        [target.peer.id],
        { type: 'isRead', data: { toContactId: session.userId, msg_id: msgId } },
        undefined,
        { read: read.length ? await this.hydrator.presentMany(read, target.peer) : undefined },
      );
    } else if (target.kind === 'group' && readBefore !== null) {
      await this.receipts.onRead(session, target, readBefore, msgId);
    }
    await this.ctx.realtime.publish(
      [session.userId],
      { type: 'readAll', data: { toContactId: body.toContactId as ContactId, msg_id: msgId, is_group: body.is_group } },
      socketClientId,
    );
  }

  private async markPseudoRead(session: Session, key: 'system' | 'admin_notice'): Promise<void> {
    if (key === 'admin_notice') {
      await this.ctx.repos.conversations.upsertConversation(session.userId, 'admin_notice', {
        read_msg_id: await this.ctx.repos.announcements.newestId(),
      });
    }
  }

  async readAt(session: Session, toContactId: ContactId | string | number): Promise<void> {
    const target = await this.ctx.access.chat(session, toContactId);
    await this.ctx.repos.conversations.upsertConversation(session.userId, target.chatKey, { is_at: 0 });
  }

  /** Withdraws a message, as protocol's `withdrawal` rule allows; a pat line, as its patter may (`withdrawPat`). */
  async undo(session: Session, ref: number | string): Promise<void> {
    const { row, chat: target } = await this.ctx.access.message(session, ref);
    if (isOwnPat(row, session.userId)) {
      this.ctx.access.requireWritable(target);
      return withdrawPat(this.ctx, row);
    }
    if (row.type === 'event' || row.is_undo) throw new AppError('MessageNotFound');
    this.ctx.access.requireWritable(target);
    const mine = row.from_user === session.userId;
    const inGroup = target.kind === 'group';
    const authorMember =
      inGroup && !mine ? await this.ctx.repos.groups.member(target.group.id, row.from_user) : undefined;
    const redoTimeS = this.ctx.config.get().chatInfo.redoTime;
    const verdict = withdrawal({
      mine,
      inGroup,
      myRole: inGroup ? target.member.role : GroupRoles.Member,
      authorRole: authorMember?.role ?? GroupRoles.Member,
      age: this.ctx.now() - row.create_time,
      redoTimeS,
    });
    if (verdict === 'notYours') throw new AppError('NotYourMessage');
    if (verdict === 'tooLate') throw new AppError('UndoTooLate', { minutes: Math.round(redoTimeS / 60) });
    const author = await this.ctx.repos.users.byId(row.from_user);
    const ext = {
      event: 'undo',
      user_id: row.from_user,
      name: author?.realname ?? '',
      by: session.userId,
      by_name: session.user.realname,
      original_type: row.type,
      ...(mine && row.type === 'text' && { original: row.content }),
      undone_at: this.ctx.now(),
    } satisfies EventLine;
    // Withdrawn once: a call that lost to another withdrawal or a deletion answers as one made after it.
    const withdrawn = await this.ctx.repos.messages.withdraw(row.id, {
      type: 'event',
      content: `${author?.realname ?? ''}撤回了一条消息`,
      extends: JSON.stringify(ext),
      at: '',
    });
    if (!withdrawn) throw new AppError('MessageNotFound');
    await this.ctx.repos.pins.drop(row.id);
    await this.files.release(row.file_id);
    const updated = (await this.ctx.repos.messages.byId(row.id))!;
    const holders = await this.ctx.access.holders(updated);
    for (const { reader, message } of await this.hydrator.forReaders(updated, holders)) {
      // The withdrawn text goes back to its author alone, for "re-edit".
      if (reader.id !== session.userId) delete message.extends.original;
      await this.ctx.realtime.publish([reader.id], { type: 'undoMessage', data: message });
    }
  }

  /** Deletes a message for everyone (the sender, when dbDelMsg is on). */
  async deleteForAll(session: Session, ref: number | string): Promise<void> {
    if (this.ctx.config.get().chatInfo.dbDelMsg !== 1) throw new AppError('DeleteDisabled');
    const { row, chat } = await this.ctx.access.message(session, ref);
    this.ctx.access.requireWritable(chat);
    if (row.from_user !== session.userId) throw new AppError('NotYourMessage');
    if (!(await this.ctx.repos.messages.deleteForAll(row.id))) throw new AppError('MessageNotFound');
    await this.ctx.repos.pins.drop(row.id);
    await this.files.release(row.file_id);
    for (const id of await this.ctx.access.holders(row)) {
      await this.ctx.realtime.publish([id], {
        type: 'delMessage',
        data: { id: row.client_id, msg_id: row.id, toContactId: contactIdOf(row, id) },
      });
    }
  }

  /**
   * Takes a message down for everyone (an administrator's action on a report): it becomes a
   * `takedown` line, "该内容已被管理员删除" in each reader's language, and its holders are told as of a
   * withdrawal (`undoMessage`), which Raingad clients also read. False when the message is gone
   * already (withdrawn, deleted, or taken down by a call that came first).
   */
  async takeDown(msgId: number): Promise<boolean> {
    const row = await this.ctx.repos.messages.byId(msgId);
    if (!row || row.type === 'event') return false;
    const author = await this.ctx.repos.users.byId(row.from_user);
    const line = {
      event: 'takedown',
      user_id: row.from_user,
      name: author?.realname ?? '',
      original_type: row.type,
      taken_at: this.ctx.now(),
    } satisfies EventLine;
    const taken = await this.ctx.repos.messages.withdraw(row.id, {
      type: 'event',
      content: '该内容已被管理员删除',
      extends: JSON.stringify(line),
      at: '',
    });
    if (!taken) return false;
    await this.ctx.repos.pins.drop(row.id);
    await this.files.release(row.file_id);
    const updated = (await this.ctx.repos.messages.byId(row.id))!;
    for (const { reader, message } of await this.hydrator.forReaders(updated, await this.ctx.access.holders(updated)))
      await this.ctx.realtime.publish([reader.id], { type: 'undoMessage', data: message });
    return true;
  }

  /** Hides a message for me only. */
  async hide(session: Session, ref: number | string): Promise<void> {
    const { row } = await this.ctx.access.message(session, ref);
    await this.ctx.repos.messages.hide(session.userId, row.id);
  }

  /**
   * Takes a chat off my list until a newer message arrives; what it held counts as read (a private
   * chat's counter is cleared; a group's read position moves to its newest message, and the senders
   * of what that passed are told as by a read, so that their receipt counts do not stay behind).
   */
  async deleteChat(session: Session, id: ContactId | string | number): Promise<void> {
    const target = await this.ctx.access.chat(session, id);
    const [view] = await this.ctx.repos.conversations.viewsOf(session.userId, [target.chatKey]);
    const newest = view?.newestId ?? (await this.ctx.repos.messages.newestId(target.chatKey));
    await this.ctx.repos.conversations.upsertConversation(session.userId, target.chatKey, {
      hidden: 1,
      is_at: 0,
      last_msg_id: newest,
      ...(target.kind === 'group' ? { read_msg_id: Math.max(view?.row.read_msg_id ?? 0, newest) } : { unread: 0 }),
    });
    if (target.kind === 'group') {
      const before = view ? Math.max(view.row.read_msg_id, view.row.clear_msg_id) : 0;
      await this.receipts.onRead(session, target, before, newest);
    }
  }

  async setTop(session: Session, body: RouteInput<'setChatTop'>): Promise<void> {
    const target = await this.ctx.access.chat(session, body.id);
    await this.ctx.repos.conversations.upsertConversation(session.userId, target.chatKey, { is_top: body.is_top });
    await this.ctx.realtime.publish([session.userId], {
      type: 'setChatTop',
      data: { id: body.id as ContactId, is_top: body.is_top ? 1 : 0, is_group: body.is_group },
    });
  }

  async setNotice(session: Session, body: RouteInput<'isNotice'>): Promise<void> {
    const target = await this.ctx.access.chat(session, body.id);
    await this.ctx.repos.conversations.upsertConversation(session.userId, target.chatKey, {
      is_notice: body.is_notice,
    });
    await this.ctx.realtime.publish([session.userId], {
      type: 'setIsNotice',
      data: { id: body.id as ContactId, is_notice: body.is_notice ? 1 : 0, is_group: body.is_group },
    });
  }

  /**
   * Files I sent (is_mine 1) or received, newest first (the product's file management); Raingad's
   * file manager asks by `role` (1 sent, 2 received, 0 both) or for all of them (`is_all`).
   */
  async fileList(session: Session, body: RouteInput<'fileList'>): Promise<{ items: FileItem[]; total: number }> {
    const role = body.is_all === 1 ? 0 : (body.role ?? (body.is_mine === 1 ? 1 : 2));
    const direction = role === 1 ? 'sent' : role === 2 ? 'received' : 'both';
    const { rows, total } = await this.ctx.repos.history.files(session.userId, direction, {
      cate: body.cate,
      keywords: body.keywords,
      limit: body.limit,
      offset: (body.page - 1) * body.limit,
    });
    const messages = await this.hydrator.presentMany(rows, session.user);
    const items = rows.map((row, i): FileItem => {
      const m = messages[i]!;
      const ext = m.extends;
      const name = row.type === 'file' ? String(ext.name ?? '') : (row.content.split('/').pop() ?? '');
      const picture =
        row.type === 'image' ? String(ext.thumb || row.content) : row.type === 'video' ? String(ext.poster ?? '') : '';
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
        preview: picture || row.content,
        extUrl: picture,
        msg_type: row.type,
        user_id_info: m.fromUser,
        download: `${row.content}?name=${encodeURIComponent(name)}`,
      };
    });
    return { items, total };
  }
}
