import { AppError } from '../../errors';
import type { ConfigRepo } from '../system';
import { KeywordMatcher, type KeywordAction, type Screening } from './matcher';
import type { KeywordRepo } from './repo';

/** The `config` key whose value changes whenever a list or its words change, on any node. */
const VERSION_KEY = '_keywords';

const ACTIONS: ReadonlySet<string> = new Set<KeywordAction>(['refuse', 'replace', 'review']);

/** A text as it is kept after screening, and the words that hold it for review (null: not held). */
export interface Screened {
  text: string;
  held: string[] | null;
}

/**
 * The keyword rules as this process applies them: one matcher of every word of the lists that are
 * on, built at start and built again when the lists change, here or on another node (their version
 * in the `config` table, read every CONFIG_POLL_MS as the configuration's own is).
 */
export class KeywordScreen {
  private matcher = new KeywordMatcher([]);
  private version = '';
  private poller: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly repo: Pick<KeywordRepo, 'active'>,
    private readonly config: Pick<ConfigRepo, 'value' | 'putAll'>,
  ) {}

  /** Reads the lists and builds the matcher. */
  async load(): Promise<void> {
    const version = (await this.config.value(VERSION_KEY)) ?? '';
    const rows = await this.repo.active();
    this.matcher = new KeywordMatcher(
      rows.filter((r) => ACTIONS.has(r.action)).map((r) => ({ word: r.word, action: r.action as KeywordAction })),
    );
    this.version = version;
    for (const l of this.listeners) l();
  }

  /** How many distinct words and patterns apply now. */
  get size(): number {
    return this.matcher.size;
  }

  /** Calls `listener` after every rebuild of the matcher (tests wait on it). */
  onLoaded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After a change of the lists: a new version for the other nodes, and the matcher built again here. */
  async changed(): Promise<void> {
    await this.config.putAll([[VERSION_KEY, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`]]);
    await this.load();
  }

  /** Builds the matcher again when another process changed the lists; answers whether it did. */
  async checkVersion(): Promise<boolean> {
    const version = (await this.config.value(VERSION_KEY)) ?? '';
    if (version === this.version) return false;
    await this.load();
    return true;
  }

  startPolling(ms: number): void {
    if (ms <= 0) return;
    this.poller = setInterval(() => void this.checkVersion().catch(() => undefined), ms);
    this.poller.unref();
  }

  stop(): void {
    clearInterval(this.poller);
  }

  /** What the lists make of a text. */
  screen(text: string): Screening {
    return this.matcher.screen(text);
  }

  /**
   * A text a person sends or posts (a message, a moments post or comment): refused (KeywordRefused,
   * naming no word), starred, or kept as it is and marked as held for review.
   */
  content(text: string): Screened {
    const s = this.matcher.screen(text);
    if (s.action === 'refuse') throw new AppError('KeywordRefused');
    return { text: s.replaced, held: s.action === 'review' ? s.words : null };
  }

  /**
   * A name or an announcement (a display name, a group's name, a group's announcement): a review
   * list refuses it as a refuse list does (KeywordRefusedName), since a name cannot wait for an
   * operator; a replace list stars its words.
   */
  name(text: string, field?: string): string {
    const s = this.matcher.screen(text);
    if (s.action === 'refuse' || s.action === 'review')
      throw new AppError('KeywordRefusedName', {}, field ? { fields: [field] } : null);
    return s.replaced;
  }
}
