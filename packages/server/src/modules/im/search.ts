import type { RouteInput, SearchHit } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { contactIdOf, type Access } from '../access';
import type { Session } from '../auth';
import type { ContactService } from './contacts';
import type { Hydrator } from './hydrate';
import type { SearchIndexer } from './search-index';
import { highlights, queryTerms } from './search-text';

/** What MessageSearch is built from. */
export interface SearchParts {
  repos: Pick<Repos, 'search'>;
  access: Access;
}

/**
 * searchMessage (docs/protocol.md §3): every conversation the reader can see, newest first, each hit with
 * its conversation as the reader's list shows it and where the words are in its content. What
 * the reader may see is the repository's rule for reading across chats (the one `sync` reads by),
 * with the groups that hide history from new members named by Access.
 */
export class MessageSearch {
  constructor(
    private readonly ctx: SearchParts,
    private readonly hydrator: Hydrator,
    private readonly contacts: ContactService,
    private readonly indexer: SearchIndexer,
  ) {}

  /** Indexes new messages in the background every `everyMs` (0: only before each search). */
  start(everyMs: number): void {
    this.indexer.start(everyMs);
  }

  stop(): Promise<void> {
    return this.indexer.stop();
  }

  async search(session: Session, body: RouteInput<'searchMessage'>): Promise<{ items: SearchHit[]; total: number }> {
    const { access, repos } = this.ctx;
    if (body.toContactId === 'system' || body.toContactId === 'admin_notice') return { items: [], total: 0 };
    const chatKey = body.toContactId === undefined ? undefined : (await access.chat(session, body.toContactId)).chatKey;
    const terms = queryTerms(body.keywords);
    // Messages are indexed after their commit: those stored before this search are indexed now.
    await this.indexer.catchUp();
    const { rows, total } = await repos.search.search(
      session.userId,
      await access.readerGroups(session.userId),
      terms,
      {
        chatKey,
        types: body.type ? [body.type] : undefined,
        fromUser: body.from_user,
        startTime: body.start_time,
        endTime: body.end_time,
      },
      { limit: body.limit, offset: (body.page - 1) * body.limit },
    );
    const messages = await this.hydrator.presentMany(rows, session.user);
    const chats = rows.map((r) => contactIdOf(r, session.userId));
    const contacts = await this.contacts.infoMany(session, chats);
    const items = messages.map((m, i): SearchHit => ({
      ...m,
      contactInfo: contacts.get(String(chats[i]))!,
      highlight: highlights(m.content, terms),
    }));
    return { items, total };
  }
}
