import type { PushFrame } from '@sparrow/protocol';
import type { PushExtras } from './present';

/** What travels between nodes: pushes to users, broadcasts, and orders to close sessions' sockets. */
export type BusMessage =
  | {
      kind: 'push';
      userIds: number[];
      frame: PushFrame;
      exceptClientId?: string | undefined;
      /** When it was published (ms since the epoch), for the push delay metric. */
      at?: number | undefined;
      /** What a kind of socket reads of the push beyond its frame. */
      extras?: PushExtras | undefined;
    }
  | { kind: 'broadcast'; frame: PushFrame; exceptUserId?: number | undefined }
  | {
      kind: 'kick';
      userId: number;
      sessionIds: number[];
      /** Sent to each socket before it closes. */
      frame?: PushFrame | undefined;
      closeCode: number;
    };

/**
 * The cross-node bus. Each node hands it the users it holds sockets for; a message reaches every
 * node holding one of its users. In-process on one node, Redis channels per user across nodes.
 */
export interface Bus {
  publish(message: BusMessage): Promise<void>;
  /** Called for every message that concerns a user this node holds (or everyone). */
  onMessage(handler: (message: BusMessage) => void): void;
  /** This node now holds sockets of `userId`. */
  watch(userId: number): Promise<void>;
  /** This node holds no more sockets of `userId`. */
  unwatch(userId: number): Promise<void>;
  close(): Promise<void>;
}

/** The bus of a single node: messages go straight to the local handler. */
export class LocalBus implements Bus {
  private handler: (message: BusMessage) => void = () => undefined;

  async publish(message: BusMessage): Promise<void> {
    this.handler(message);
  }
  onMessage(handler: (message: BusMessage) => void): void {
    this.handler = handler;
  }
  async watch(): Promise<void> {}
  async unwatch(): Promise<void> {}
  async close(): Promise<void> {}
}
