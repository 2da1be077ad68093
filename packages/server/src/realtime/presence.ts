/** What adding a socket found: whether its user just came online, and their live sockets now. */
export interface Added {
  cameOnline: boolean;
  sockets: number;
}

/**
 * Who is online: the set of live sockets per user, across nodes. `add` tells whether the user
 * just came online and how many sockets they have, `remove` whether they just went offline.
 */
export interface Presence {
  add(userId: number, clientId: string): Promise<Added>;
  remove(userId: number, clientId: string): Promise<boolean>;
  online(userIds: number[]): Promise<Set<number>>;
  close(): Promise<void>;
}

/** Presence on a single node. */
export class LocalPresence implements Presence {
  private readonly sockets = new Map<number, Set<string>>();

  async add(userId: number, clientId: string): Promise<Added> {
    let set = this.sockets.get(userId);
    if (!set) this.sockets.set(userId, (set = new Set()));
    const cameOnline = set.size === 0;
    set.add(clientId);
    return { cameOnline, sockets: set.size };
  }
  async remove(userId: number, clientId: string): Promise<boolean> {
    const set = this.sockets.get(userId);
    if (!set?.delete(clientId)) return false;
    if (set.size === 0) this.sockets.delete(userId);
    return set.size === 0;
  }
  async online(userIds: number[]): Promise<Set<number>> {
    return new Set(userIds.filter((id) => this.sockets.has(id)));
  }
  async close(): Promise<void> {}
}
