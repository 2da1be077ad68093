import type { Repos } from '../../../repos';
import type { Chat } from '../../access';

type GroupChat = Extract<Chat, { kind: 'group' }>;

/** Groups whose member ids are kept between sends. */
const MEMBER_LISTS_KEPT = 10_000;

/**
 * A group chat's member ids, read once for all the steps of one send and kept between sends: a
 * list read with version v serves a request whose group row shows v, as if it had read both at
 * once (every send reads the group row; every join and leave raises the version).
 */
export class MemberLists {
  private readonly perChat = new WeakMap<GroupChat, Promise<readonly number[]>>();
  private readonly kept = new Map<number, { version: number; ids: readonly number[] }>();

  constructor(private readonly repos: Pick<Repos, 'groups'>) {}

  of(chat: GroupChat): Promise<readonly number[]> {
    const { group } = chat;
    const known = this.kept.get(group.id);
    if (known && known.version === group.member_version) return Promise.resolve(known.ids);
    let ids = this.perChat.get(chat);
    if (!ids) {
      const read = this.repos.groups.memberList(group.id);
      ids = read.then((list) => list.ids);
      this.perChat.set(chat, ids);
      void read.then(
        (list) => {
          if (this.kept.size >= MEMBER_LISTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
          this.kept.set(group.id, list);
        },
        () => undefined,
      );
    }
    return ids;
  }

  /** Brings a group chat's member-list version up to date, dropping the list read for an older one. */
  async refresh(chat: GroupChat): Promise<void> {
    const version = await this.repos.groups.memberVersion(chat.group.id);
    if (version === chat.group.member_version) return;
    chat.group = { ...chat.group, member_version: version };
    this.perChat.delete(chat);
  }
}
