/** Where a call stands: ringing until the callee answers, then accepted until it ends. */
export type CallState = 'ringing' | 'accepted';

/** A live call, as every node sees it. */
export interface CallRecord {
  /** The call's UUID, made by the caller (the stored message's client id). */
  id: string;
  callerId: number;
  calleeId: number;
  /** 1 video, 0 audio. */
  type: 0 | 1;
  state: CallState;
  /** ms. */
  createdAt: number;
  acceptedAt?: number;
  /** The locks and the record hold until then unless renewed, ms. */
  expiresAt: number;
  /** Since when a party has had no socket anywhere, ms; cleared when both are back. */
  goneSince?: number;
  /** The session that placed the call and, once answered, the one that answered it. */
  callerSession: number;
  calleeSession?: number;
}

/** One key per call: a callee cannot name another caller's call by reusing its id. */
export const callKey = (callerId: number, id: string) => `${callerId}:${id}`;

/**
 * Live calls and the per-user call locks. `begin` takes both parties' locks and records the call
 * atomically; `take` removes them atomically, so that of two nodes or two requests ending one call
 * only one goes on to tell of it.
 */
export interface CallStore {
  /** Records the call and locks both parties; 'busy' when either holds a lock still live at `now`. */
  begin(call: CallRecord, now: number): Promise<'ok' | 'busy'>;
  get(callerId: number, id: string): Promise<CallRecord | undefined>;
  /** Replaces the record (and renews the locks) while its state is still `from`; false otherwise. */
  update(call: CallRecord, from: CallState): Promise<boolean>;
  /** Removes the call and its locks; the record when this caller removed it, undefined when it had gone. */
  take(call: Pick<CallRecord, 'callerId' | 'calleeId' | 'id'>): Promise<CallRecord | undefined>;
  /** Every live call, for the sweep. */
  live(): Promise<CallRecord[]>;
  close(): Promise<void>;
}

/** Calls on a single node. */
export class MemoryCallStore implements CallStore {
  private readonly calls = new Map<string, CallRecord>();
  private readonly locks = new Map<number, { key: string; expiresAt: number }>();

  async begin(call: CallRecord, now: number): Promise<'ok' | 'busy'> {
    const key = callKey(call.callerId, call.id);
    for (const userId of [call.callerId, call.calleeId]) {
      const lock = this.locks.get(userId);
      if (lock && lock.key !== key && lock.expiresAt > now) return 'busy';
    }
    this.lock(call);
    this.calls.set(key, { ...call });
    return 'ok';
  }

  async get(callerId: number, id: string): Promise<CallRecord | undefined> {
    const call = this.calls.get(callKey(callerId, id));
    return call && { ...call };
  }

  async update(call: CallRecord, from: CallState): Promise<boolean> {
    const key = callKey(call.callerId, call.id);
    const current = this.calls.get(key);
    if (!current || current.state !== from) return false;
    this.calls.set(key, { ...call });
    this.lock(call);
    return true;
  }

  async take(call: Pick<CallRecord, 'callerId' | 'calleeId' | 'id'>): Promise<CallRecord | undefined> {
    const key = callKey(call.callerId, call.id);
    const current = this.calls.get(key);
    if (!current) return undefined;
    this.calls.delete(key);
    for (const userId of [call.callerId, call.calleeId])
      if (this.locks.get(userId)?.key === key) this.locks.delete(userId);
    return current;
  }

  async live(): Promise<CallRecord[]> {
    return [...this.calls.values()].map((c) => ({ ...c }));
  }

  async close(): Promise<void> {}

  private lock(call: CallRecord): void {
    const key = callKey(call.callerId, call.id);
    for (const userId of [call.callerId, call.calleeId]) this.locks.set(userId, { key, expiresAt: call.expiresAt });
  }
}
