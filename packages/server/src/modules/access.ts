import { groupNumber, readId, type ContactId, type MemberRole } from '@sparrow/protocol';
import { AppError } from '../errors';
import type { Repos } from '../repos';
import type { Session } from './auth';
import type { FriendRow } from './friend';
import { groupKey, groupSetting, type GroupRow, type MemberRow } from './group';
import { ChatType, pairKey, selfKey, type MessageRow, type ReaderGroups } from './im/repo';
import { admitsFriend, admitsNoFriend, Hide, readsNamed, type PostRow } from './moments';
import { cateOf, type FileRow } from './upload';
import type { UserRow } from './user';

/** A conversation resolved from a `toContactId` and checked: whom it is with and its storage key. */
export type Chat =
  | { kind: 'private'; chatKey: string; peer: UserRow }
  | { kind: 'group'; chatKey: string; group: GroupRow; member: MemberRow }
  | { kind: 'self'; chatKey: string };

type AccessRepos = Pick<
  Repos,
  'users' | 'groups' | 'messages' | 'conversations' | 'friends' | 'files' | 'emoji' | 'moments' | 'blocks'
>;

/**
 * The one access module: who may see and touch which group, chat, message, file and friendship.
 * Deny by default, and "not found" and "not yours" look alike: a missing or disbanded group and a
 * group I am not in are refused alike, as are a missing message and one I may not see, so that an
 * answer never tells an outsider which ids exist.
 */
/** Why a chat or a message is not the caller's to read, as the error it is answered with. */
type Refusal = 'NotMember' | 'NotAllowedTarget' | 'UserNotFound' | 'MessageNotFound';

export class Access {
  constructor(private readonly repos: AccessRepos) {}

  /**
   * The group and my membership, or NotMember (also for a group that does not exist). `groups`:
   * the repository to read through, the one bound to a group's lock (GroupRepo.locked) when the
   * caller is about to change the group.
   */
  async requireMember(
    userId: number,
    groupId: number,
    groups: AccessRepos['groups'] = this.repos.groups,
  ): Promise<{ group: GroupRow; member: MemberRow }> {
    const group = await groups.byId(groupId);
    const member = group && (await groups.member(groupId, userId));
    if (!group || !member) {
      // Its former members are told why; anyone else, as of any group they are not in.
      if (!group && (await this.readableGroup(userId, groupId, groups))) throw new AppError('GroupDisbanded');
      throw new AppError('NotMember');
    }
    return { group, member };
  }

  /**
   * A group whose chat I may read: one I am in, or one disbanded while I was in it (its chat stays,
   * read-only: sending refuses it); undefined otherwise.
   */
  private async readableGroup(
    userId: number,
    groupId: number,
    groups: AccessRepos['groups'] = this.repos.groups,
  ): Promise<{ group: GroupRow; member: MemberRow } | undefined> {
    const group = (await groups.byId(groupId)) ?? (await groups.disbanded(groupId));
    const member = group && (await groups.member(groupId, userId));
    return group && member ? { group, member } : undefined;
  }

  /** As requireMember, and my role is one of `roles` (protocol `GroupRoles`). */
  async requireRole(
    userId: number,
    groupId: number,
    roles: readonly MemberRole[],
    groups: AccessRepos['groups'] = this.repos.groups,
  ): Promise<{ group: GroupRow; member: MemberRow }> {
    const found = await this.requireMember(userId, groupId, groups);
    if (!(roles as readonly number[]).includes(found.member.role)) throw new AppError('Forbidden');
    return found;
  }

  /**
   * A conversation I may read: private with anyone known, a group I am in (or was in when it was
   * disbanded: `group.status` 0, which every write refuses), my own.
   */
  async chat(session: Session, toContactId: ContactId | string | number): Promise<Chat> {
    const found = await this.findChat(session, toContactId);
    if (typeof found === 'string') throw new AppError(found);
    return found;
  }

  /** As `chat`, answering the refusal's name instead of throwing it. */
  private async findChat(session: Session, toContactId: ContactId | string | number): Promise<Chat | Refusal> {
    if (toContactId === -1 || toContactId === '-1') return { kind: 'self', chatKey: selfKey(session.userId) };
    if (typeof toContactId === 'string' && toContactId.startsWith('group-')) {
      const found = await this.readableGroup(session.userId, groupNumber(toContactId));
      if (!found) return 'NotMember';
      return { kind: 'group', chatKey: groupKey(found.group.id), ...found };
    }
    const peerId = readId(toContactId);
    if (peerId === undefined) return 'NotAllowedTarget';
    if (peerId === session.userId) return { kind: 'self', chatKey: selfKey(session.userId) };
    const peer = await this.repos.users.byId(peerId);
    const chatKey = pairKey(session.userId, peerId);
    // A disabled account reads as a missing one (as getUserInfo answers), except in a chat we already share.
    if (!peer || (peer.status !== 1 && !(await this.repos.conversations.conversation(session.userId, chatKey))))
      return 'UserNotFound';
    return { kind: 'private', chatKey, peer };
  }

  /** A chat that may still change: a disbanded group's is read-only (sending, withdrawing, deleting for all). */
  requireWritable(chat: Chat): void {
    if (chat.kind === 'group' && chat.group.status !== 1) throw new AppError('GroupDisbanded');
  }

  /** The first message id a reader may see in a chat (cleared history, joined without history). */
  async floor(userId: number, chat: Chat): Promise<number> {
    const conv = await this.repos.conversations.conversation(userId, chat.chatKey);
    let floor = conv?.clear_msg_id ?? 0;
    if (chat.kind === 'group' && !groupSetting(chat.group).history) floor = Math.max(floor, chat.member.join_msg_id);
    return floor;
  }

  /**
   * The groups whose chats I may read (those I am in, and those disbanded while I was), and those
   * among them that show me nothing before my join: floor's rule for every group at once.
   */
  async readerGroups(userId: number): Promise<ReaderGroups> {
    const [active, disbanded] = await Promise.all([
      this.repos.groups.mine(userId),
      this.repos.groups.mineDisbanded(userId),
    ]);
    const groups = [...active, ...disbanded];
    return {
      ids: groups.map((g) => g.id),
      hidingHistory: groups.filter((g) => !groupSetting(g).history).map((g) => g.id),
    };
  }

  /** Who holds a message: the pair, the group's members, or its sender alone. */
  async holders(row: MessageRow): Promise<number[]> {
    if (row.chat_type === ChatType.Group) return this.repos.groups.memberIds(row.to_id);
    if (row.chat_type === ChatType.Private) return [row.from_user, row.to_id];
    return [row.from_user];
  }

  /**
   * Who holds a message and may read it: its holders, less the members of a group that hides
   * earlier history who joined after it (what a change to the message may be told to).
   */
  async readers(row: MessageRow): Promise<number[]> {
    if (row.chat_type !== ChatType.Group) return this.holders(row);
    const group = await this.repos.groups.byId(row.to_id);
    if (!group || groupSetting(group).history) return this.holders(row);
    return this.repos.groups.memberIdsJoinedBefore(row.to_id, row.id);
  }

  /** A message I can see, by msg_id or by client id; refused alike when missing or not mine to see. */
  async message(session: Session, ref: number | string): Promise<{ row: MessageRow; chat: Chat }> {
    const found = await this.findMessage(session, ref);
    if (typeof found === 'string') throw new AppError(found);
    return found;
  }

  /** As `message`, answering the refusal's name instead of throwing it. */
  private async findMessage(
    session: Session,
    ref: number | string,
  ): Promise<{ row: MessageRow; chat: Chat } | Refusal> {
    const { messages } = this.repos;
    const candidates = typeof ref === 'number' ? [await messages.byId(ref)] : await messages.byClientId(ref);
    const ordered = candidates
      .filter((r): r is MessageRow => r !== undefined)
      .sort((a, b) => Number(b.from_user === session.userId) - Number(a.from_user === session.userId));
    for (const row of ordered) {
      if (row.is_deleted) continue;
      if (!(await this.holders(row)).includes(session.userId)) continue;
      const chat = await this.findChat(session, contactIdOf(row, session.userId));
      if (typeof chat === 'string') return chat;
      if (row.id <= (await this.floor(session.userId, chat))) continue;
      if (await messages.isHidden(session.userId, row.id)) continue;
      return { row, chat };
    }
    return 'MessageNotFound';
  }

  /** A file I uploaded and the name I gave it; a missing file and someone else's are refused alike. */
  async ownFile(userId: number, fileId: number): Promise<{ file: FileRow; name: string }> {
    const id = readId(fileId);
    const file = id === undefined ? undefined : await this.repos.files.byId(id);
    const name = file && (await this.repos.files.uploadedName(userId, file.id));
    if (!file || name === undefined) throw new AppError('NotFound', {}, { fields: ['file_id'] });
    return { file, name };
  }

  /** An image I may send as a sticker: in my collection or uploaded by me; undefined otherwise. */
  async sticker(userId: number, fileId: number): Promise<FileRow | undefined> {
    const id = readId(fileId);
    const file = id === undefined ? undefined : await this.repos.files.byId(id);
    if (!file || cateOf(file.ext) !== 2) return undefined;
    if (
      (await this.repos.emoji.collected(userId, file.id)) ||
      (await this.repos.files.uploadedName(userId, file.id)) !== undefined
    )
      return file;
    return undefined;
  }

  /** Whether a message I can see carries this file (its newest twenty live messages are asked). */
  async carriedBySeenMessage(session: Session, fileId: number): Promise<boolean> {
    for (const id of await this.repos.messages.liveIdsWithFile(fileId, 20))
      if (typeof (await this.findMessage(session, id)) !== 'string') return true;
    return false;
  }

  /**
   * Whether `viewerId` may see a post: its author always; a current friend of the author when the
   * post's visibility admits them, the author's hide list does not name them, and the post is
   * within the author's range, and neither blocked the other. Unfriending ends it both ways at once
   * (the friend rows are asked), as does a block.
   */
  async seesMoment(viewerId: number, post: PostRow, now: number): Promise<boolean> {
    if (post.user_id === viewerId) return true;
    if (admitsNoFriend(post.visibility)) return false;
    const { friends, moments } = this.repos;
    if (!(await friends.row(viewerId, post.user_id))) return false;
    if (await this.blockedEither(viewerId, post.user_id)) return false;
    if (await moments.hidden(post.user_id, Hide.From, viewerId)) return false;
    const named = readsNamed(post.visibility) && Boolean(await moments.targets(post.id, viewerId));
    if (!admitsFriend(post.visibility, named)) return false;
    const range = (await moments.settings(post.user_id))?.range_days ?? 0;
    return range === 0 || post.create_time >= now - range * 86_400_000;
  }

  /** A post I may see; a missing one and one I may not see are refused alike. */
  async moment(viewerId: number, postId: number, now: number): Promise<PostRow> {
    const post = await this.repos.moments.byId(postId);
    if (!post || !(await this.seesMoment(viewerId, post, now))) throw new AppError('MomentNotFound');
    return post;
  }

  /** My friend row of `otherId`, while we are friends. */
  friendship(userId: number, otherId: number): Promise<FriendRow | undefined> {
    return this.repos.friends.row(userId, otherId);
  }

  /** Whether `blockerId` blocked `otherId` (黑名单). */
  blocked(blockerId: number, otherId: number): Promise<boolean> {
    return this.repos.blocks.has(blockerId, otherId);
  }

  /** Whether either of two people blocked the other: their moments are hidden from each other. */
  blockedEither(a: number, b: number): Promise<boolean> {
    return this.repos.blocks.either(a, b);
  }

  /**
   * Whether `fromId` may reach `toId` in a private chat (a message, a call, a pat, a reaction): not
   * blocked by them, and their friend when `friendsOnly` (runMode 2). One answer for both, so that a
   * blocked sender is refused exactly as a non-friend is, and never learns of the block.
   */
  async reaches(fromId: number, toId: number, friendsOnly: boolean): Promise<boolean> {
    const { blocked, friend } = await this.repos.blocks.reach(fromId, toId);
    return !blocked && (!friendsOnly || friend);
  }

  /** Those of `ids` who blocked `userId`: a mention by `userId` does not name them. */
  async blockersAmong(userId: number, ids: readonly number[]): Promise<Set<number>> {
    return new Set(await this.repos.blocks.blockersAmong(userId, ids));
  }

  /** Everyone `userId` blocked or was blocked by: what they did on moments is hidden from each other. */
  async blockedAround(userId: number): Promise<Set<number>> {
    return new Set(await this.repos.blocks.around(userId));
  }
}

/** The `toContactId` of a message's conversation as `userId` names it. */
export function contactIdOf(row: MessageRow, userId: number): ContactId {
  if (row.chat_type === ChatType.Group) return `group-${row.to_id}`;
  if (row.chat_type === ChatType.Self) return -1;
  return row.from_user === userId ? row.to_id : row.from_user;
}
