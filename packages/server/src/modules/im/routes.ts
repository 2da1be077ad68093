import { EMPTY_ADMIN_NOTICE, type Message } from '@sparrow/protocol';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope';
import { fromSparrowClient, socketOf, type Handlers } from '../../http/route';
import { renderable } from '../../realtime/present';
import type { ContactService } from './contacts';
import type { ForwardService } from './forward';
import type { MessageSearch } from './search';
import type { SendPipeline } from './send/pipeline';
import type { MessageService } from './service';

/** Messages as the caller's client can draw them: Raingad 6.x clients a merged record as a text (`renderable`). */
function drawableFor<M extends Message>(req: FastifyRequest, items: M[]): M[] {
  return fromSparrowClient(req) ? items : items.map(renderable);
}

/** `/enterprise/im/*`: conversations and messages. */
export function imRoutes(
  _ctx: unknown,
  messages: MessageService,
  pipeline: SendPipeline,
  contacts: ContactService,
  search: MessageSearch,
  forwards: ForwardService,
): Handlers {
  return {
    getContacts: async ({ session }) => {
      const { items, system, pending } = await contacts.list(session);
      return ok(items, { count: pending, system });
    },
    getContactInfo: async ({ body, session }) => contacts.info(session, body.id),
    getDepartments: async () => contacts.departments(),
    getMessageList: async ({ body, session, req }) => {
      const { items, total } = await messages.list(session, body);
      return ok(drawableFor(req, items), { count: total, page: body.page });
    },
    searchMessage: async ({ body, session, req }) => {
      const { items, total } = await search.search(session, body);
      return ok(drawableFor(req, items), { count: total, page: body.page });
    },
    sync: async ({ body, session, req }) => {
      const { items, remaining } = await messages.sync(session, body);
      return ok(drawableFor(req, items), { count: remaining });
    },
    sendMessage: async ({ body, session, req }) => pipeline.send(session, body, socketOf(req)),
    forwardMessage: async ({ body, session }) => {
      await pipeline.forward(session, body);
      return ok(null, { msg: 'ok.forwarded' });
    },
    forwardMessages: async ({ body, session }) => {
      await forwards.forwardMessages(session, body);
      return ok(null, { msg: 'ok.forwarded' });
    },
    forwardRecord: async ({ body, session }) => forwards.read(session, body),
    setMsgIsRead: async ({ body, session, req }) => {
      await messages.markRead(session, body, socketOf(req));
      return null;
    },
    readAtMsg: async ({ body, session }) => {
      await messages.readAt(session, body.toContactId);
      return null;
    },
    undoMessage: async ({ body, session }) => {
      await messages.undo(session, body.id);
      return null;
    },
    delMessage: async ({ body, session }) => {
      await messages.deleteForAll(session, body.id);
      return null;
    },
    removeMessage: async ({ body, session }) => {
      await messages.hide(session, body.id);
      return null;
    },
    delChat: async ({ body, session }) => {
      await messages.deleteChat(session, body.id);
      return null;
    },
    setChatTop: async ({ body, session }) => {
      await messages.setTop(session, body);
      return null;
    },
    isNotice: async ({ body, session }) => {
      await messages.setNotice(session, body);
      return null;
    },
    getAdminNotice: async () => (await contacts.newestAnnouncement()) ?? EMPTY_ADMIN_NOTICE,
    fileList: async ({ body, session }) => {
      const { items, total } = await messages.fileList(session, body);
      return ok(items, { count: total, page: body.page });
    },
  };
}
