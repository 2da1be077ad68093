import type { FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { Actor } from '../admin';
import type { Session } from '../auth';
import type { KeywordAdmin } from './manage';
import type { ReviewService } from './review';

const actor = (session: Session, req: FastifyRequest): Actor => ({ adminId: session.userId, ip: req.ip });

/** `/manage/keyword*` and `/manage/held*` (docs/protocol.md §8): the route loop has already refused non-admins. */
export function keywordRoutes(keywords: KeywordAdmin, review: ReviewService): Handlers {
  const paged = <T>(body: { page?: number | undefined }, { items, total }: { items: T[]; total: number }) =>
    ok(items, { count: total, page: body.page ?? 1 });
  return {
    manageKeywordLists: async () => keywords.lists(),
    manageKeywordListCreate: async ({ body, session, req }) => keywords.createList(body, actor(session, req)),
    manageKeywordListUpdate: async ({ body, session, req }) => keywords.updateList(body, actor(session, req)),
    manageKeywordListDel: async ({ body, session, req }) => {
      await keywords.deleteList(body.id, actor(session, req));
      return null;
    },
    manageKeywordWords: async ({ body }) => paged(body, await keywords.words(body)),
    manageKeywordAdd: async ({ body, session, req }) => keywords.addWords(body, actor(session, req)),
    manageKeywordRemove: async ({ body, session, req }) => {
      await keywords.removeWords(body, actor(session, req));
      return null;
    },
    manageKeywordTest: async ({ body }) => keywords.test(body.text),
    manageHeldList: async ({ body }) => paged(body, await review.list(body)),
    manageHeldDecide: async ({ body, session, req }) => {
      await review.decide(body, actor(session, req));
      return null;
    },
  };
}
