import {
  newContact,
  translate,
  type AdminNotice,
  type Contact,
  type ContactId,
  type Department,
  PICTURES,
} from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import type { Access } from '../access';
import type { Session } from '../auth';
import type { FriendRepo } from '../friend';
import { groupKey, groupSetting, toGroupContact, type GroupRepo } from '../group';
import type { AnnouncementRepo, ConfigService } from '../system';
import type { UserRow } from '../user';
import { namedInLines, readerOf } from './hydrate';
import { previewOf, systemContact, type Reader } from './presenter';
import type { ConversationView } from './conversation-repo';
import { pairKey, selfKey, type ConversationRow, type MessageRow } from './repo';

/** A chat I deleted (delChat) and that has had nothing new since. */
function deleted(view: ConversationView): boolean {
  return view.row.hidden === 1 && view.newestId <= view.row.last_msg_id;
}

/** What ContactService is built from. */
export interface ContactParts {
  repos: Pick<Repos, 'groups' | 'announcements' | 'friends' | 'departments' | 'messages' | 'conversations'>;
  access: Access;
  config: ConfigService;
}

/** The friend module's part of the list (`FriendService`): the people I see, and one of them as a row. */
export interface ContactPeople {
  contacts(session: Session): Promise<{ items: Contact[]; pending: number }>;
  contactOf(viewerId: number, user: UserRow): Promise<Contact>;
}

/**
 * The conversation list (getContacts): my contacts and groups with each conversation's last
 * message, unread and mention counts, then `system`, `admin_notice` and my file transfer (-1).
 * Each chat's last message and unread count are read off the messages by index from my row's read
 * position (unread up to 100), so the list costs the same at any history size.
 */
export class ContactService {
  private readonly groups: GroupRepo;
  private readonly announcements: AnnouncementRepo;
  private readonly requests: FriendRepo;

  constructor(
    private readonly ctx: ContactParts,
    private readonly friends: ContactPeople,
  ) {
    this.groups = ctx.repos.groups;
    this.announcements = ctx.repos.announcements;
    this.requests = ctx.repos.friends;
  }

  /** A contact or group row with what my conversation row says of the chat. */
  private merge(
    reader: Reader,
    contact: Contact,
    view: ConversationView | undefined,
    lastById: Map<number, MessageRow>,
    /** Messages up to this id are not mine to see (a group that hides history from new members). */
    floor = 0,
  ): Contact {
    if (!view) return contact;
    const { row } = view;
    const last = lastById.get(view.lastId);
    const hidden = deleted(view);
    const shown = hidden || !last || last.id <= floor ? undefined : last;
    return {
      ...contact,
      lastContent: shown ? previewOf(shown, reader) : '',
      lastSendTime: hidden ? 0 : shown ? shown.create_time : contact.is_group === 1 ? row.last_time : 0,
      type: shown ? shown.type : '',
      unread: hidden ? 0 : view.unread,
      is_at: hidden ? 0 : row.is_at,
      is_top: row.is_top ? 1 : 0,
      is_notice: row.is_notice ? 1 : 0,
    };
  }

  /** My list, and beside it the `system` pseudo-contact (see `Envelope.system`). */
  async list(session: Session): Promise<{ items: Contact[]; system: Contact; pending: number }> {
    const me = session.userId;
    const [{ items: users, pending }, active, disbanded, views] = await Promise.all([
      this.friends.contacts(session),
      this.groups.mine(me),
      this.groups.mineDisbanded(me),
      this.ctx.repos.conversations.viewsOf(me),
    ]);
    const byKey = new Map(views.map((v) => [v.row.chat_key, v]));
    // A disbanded group stays on my list while its chat does (until I delete it).
    const groups = [
      ...active,
      ...disbanded.filter((g) => {
        const view = byKey.get(groupKey(g.id));
        return view !== undefined && !deleted(view);
      }),
    ];
    const [lastById, sizes] = await Promise.all([
      this.ctx.repos.messages.byIds(views.map((v) => v.lastId).filter(Boolean)),
      this.groups.counts(groups.map((g) => g.id)),
    ]);
    // An event line last in a chat names people as I call them.
    const named = namedInLines([...lastById.values()]);
    const reader = readerOf(session.user, (await this.ctx.repos.friends.remarks([me], named)).get(me));
    const out: Contact[] = [];
    for (const u of users) out.push(this.merge(reader, u, byKey.get(pairKey(me, u.user_id!)), lastById));
    for (const g of groups) {
      const contact = toGroupContact(g, g.role, sizes.get(g.id) ?? 0);
      const floor = groupSetting(g).history ? 0 : g.join_msg_id;
      out.push(this.merge(reader, contact, byKey.get(groupKey(g.id)), lastById, floor));
    }
    out.push(await this.adminNoticeRow(session, byKey.get('admin_notice')?.row));
    out.push(this.merge(reader, this.selfRow(session), byKey.get(selfKey(me)), lastById));
    return { items: out, system: await this.systemRow(session, pending), pending };
  }

  private async systemRow(session: Session, pending: number): Promise<Contact> {
    const newest = await this.requests.newestPendingTo(session.userId);
    const lastContent = newest
      ? translate(readerOf(session.user).locale, 'notice.friendRequest', { name: newest.fromName })
      : '';
    return systemContact(session.user, pending, lastContent, newest?.createTime ?? 0);
  }

  private async adminNoticeRow(session: Session, conv: ConversationRow | undefined): Promise<Contact> {
    const locale = readerOf(session.user).locale;
    const newest = await this.newestAnnouncement();
    const unread = await this.announcements.countUnread(conv?.read_msg_id ?? 0, session.user.create_time);
    return newContact({
      id: 'admin_notice',
      displayName: translate(locale, 'contact.adminNotice'),
      avatar: PICTURES.notice,
      lastContent: newest?.title ?? '',
      lastSendTime: newest?.create_time ?? 0,
      type: 'text',
      is_group: 2,
      unread,
      is_top: conv?.is_top ? 1 : 0,
      is_notice: conv && !conv.is_notice ? 0 : 1,
      notice: newest?.notice ?? '',
    });
  }

  private selfRow(session: Session): Contact {
    return newContact({
      id: -1,
      displayName: translate(readerOf(session.user).locale, 'contact.self'),
      avatar: PICTURES.files,
      is_group: 3,
    });
  }

  /** One row of my list: a user, a group I am in, or a pseudo-contact. */
  async info(session: Session, id: ContactId | string | number): Promise<Contact> {
    const { items, system } = await this.list(session);
    return [...items, system].find((c) => String(c.id) === String(id)) ?? this.offList(session, id);
  }

  /** The rows of my list of some chats, by id as a string, the list read once. */
  async infoMany(session: Session, ids: ReadonlyArray<ContactId | string | number>): Promise<Map<string, Contact>> {
    const { items, system } = await this.list(session);
    const listed = new Map([...items, system].map((c) => [String(c.id), c]));
    const out = new Map<string, Contact>();
    for (const id of new Set(ids.map(String))) out.set(id, listed.get(id) ?? (await this.offList(session, id)));
    return out;
  }

  /** A private chat's row for someone not on my list (no longer a friend, or never one). */
  private async offList(session: Session, id: ContactId | string | number): Promise<Contact> {
    const target = await this.ctx.access.chat(session, id);
    if (target.kind !== 'private') throw new AppError('NotFound');
    const contact = await this.friends.contactOf(session.userId, target.peer);
    const [view] = await this.ctx.repos.conversations.viewsOf(session.userId, [target.chatKey]);
    return this.merge(
      readerOf(session.user),
      contact,
      view,
      await this.ctx.repos.messages.byIds(view?.lastId ? [view.lastId] : []),
    );
  }

  /**
   * The organisation's departments (getDepartments), in runMode 1 only: there everyone in the
   * organisation is a contact and the list groups them by department; otherwise the list is of
   * friends and the organisation's structure is no one's business, so the answer is empty.
   */
  async departments(): Promise<Department[]> {
    return this.ctx.config.get().sysInfo.runMode === 1 ? this.ctx.repos.departments.list() : [];
  }

  newestAnnouncement(): Promise<AdminNotice | undefined> {
    return this.announcements.newest();
  }
}
