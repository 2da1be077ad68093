import {
  ContactExtends,
  LocationExtends,
  TEXT_MESSAGE_MAX,
  VIDEO_MAX_S,
  type RouteInput,
  withinGraphemes,
  GroupRoles,
} from '@sparrow/protocol';
import { AppError } from '../../../errors';
import type { Repos } from '../../../repos';
import { storageUrl } from '../../../storage/storage';
import type { Access, Chat } from '../../access';
import type { Session } from '../../auth';
import { cateOf, type FileRow } from '../../upload';
import { plainText } from '../../../lib/text';
import { screenMessage, type KeywordScreen } from '../../keywords';
import type { MemberLists } from './members';

type SendBody = RouteInput<'sendMessage'>;

/** What drafting reads of a message sent: sendMessage's body but for its chat, which the caller resolved. */
export type DraftBody = Pick<SendBody, 'id' | 'type' | 'content' | 'at' | 'pid' | 'extends' | 'file_id'>;

/** What drafting reads: a contact card's user, a quoted message, and the files and floors of Access. */
export interface DraftParts {
  repos: Pick<Repos, 'users' | 'messages'>;
  access: Pick<Access, 'sticker' | 'ownFile' | 'floor' | 'blockersAmong'>;
  keywords: Pick<KeywordScreen, 'content' | 'size'>;
}

/** A message ready to store: content cleaned, mentions and quote checked. */
export interface Draft {
  clientId: string;
  type: string;
  content: string;
  extends: Record<string, unknown>;
  at: number[];
  pid: number;
  fileId: number;
  /** The words of review lists (敏感词) it holds: kept back until an operator decides. */
  held?: string[];
}

/** What a message of each kind carries before mentions and quote are checked. */
type Body = Pick<Draft, 'content' | 'extends' | 'fileId'>;

/** Which uploaded files each media type may carry. */
const FITS: Record<'image' | 'voice' | 'video' | 'file', (file: FileRow) => boolean> = {
  image: (f) => cateOf(f.ext) === 2,
  voice: (f) => cateOf(f.ext) === 3 || f.ext === 'webm',
  video: (f) => cateOf(f.ext) === 4,
  file: () => true,
};

/** Cleans what the client sent into what is stored. */
export async function draftMessage(
  ctx: DraftParts,
  members: MemberLists,
  session: Session,
  chat: Chat,
  body: DraftBody,
): Promise<Draft> {
  const content = screenMessage(ctx.keywords, body.type, await bodyOf(ctx, session, body));
  return {
    clientId: body.id,
    type: body.type,
    ...content,
    at: await mentions(ctx, members, session, chat, body.at),
    pid: await quote(ctx, session, chat, body.pid),
  };
}

async function bodyOf(ctx: DraftParts, session: Session, body: DraftBody): Promise<Body> {
  switch (body.type) {
    case 'text': {
      const content = plainText(body.content);
      if (!content.trim() || !withinGraphemes(content, TEXT_MESSAGE_MAX))
        throw new AppError('Validation', {}, { fields: ['content'] });
      return { content, extends: {}, fileId: 0 };
    }
    case 'emoji':
      return sticker(ctx, session, body);
    case 'location': {
      const loc = LocationExtends.safeParse(body.extends);
      if (!loc.success) throw new AppError('Validation', {}, { fields: ['extends'] });
      return { content: `[位置] ${loc.data.name}`, extends: { ...loc.data }, fileId: 0 };
    }
    case 'contact': {
      const card = ContactExtends.safeParse(body.extends);
      const user = card.success ? await ctx.repos.users.byId(card.data.id) : undefined;
      if (!user || user.status !== 1) throw new AppError('UserNotFound', {}, { fields: ['extends'] });
      return {
        content: `[个人名片] ${user.realname}`,
        extends: { id: user.id, displayName: user.realname, avatar: user.avatar },
        fileId: 0,
      };
    }
    case 'image':
    case 'voice':
    case 'video':
    case 'file':
      return media(ctx, session, body, body.type);
  }
}

/**
 * A sticker: an image in my collection or uploaded by me, recorded with the message so that whoever
 * receives it can collect it in turn; or, from older clients, a link to an image.
 */
async function sticker(ctx: DraftParts, session: Session, body: DraftBody): Promise<Body> {
  const file = await ctx.access.sticker(session.userId, body.file_id ?? Number(body.extends.file_id));
  if (file) return { content: storageUrl(file.storage_key), extends: { file_id: file.id }, fileId: file.id };
  const content = body.content.trim();
  if (!/^(\/storage\/|https?:\/\/)\S{1,500}$/.test(content))
    throw new AppError('Validation', {}, { fields: ['content'] });
  return { content, extends: {}, fileId: 0 };
}

/** Image, voice, video and file messages: a file I uploaded, described by what the server measured. */
async function media(
  ctx: DraftParts,
  session: Session,
  body: DraftBody,
  type: 'image' | 'voice' | 'video' | 'file',
): Promise<Body> {
  const { file, name } = await ctx.access.ownFile(session.userId, body.file_id ?? Number(body.extends.file_id));
  if (!FITS[type](file)) throw new AppError('FileTypeForbidden');
  const seconds = durationOf(file, body.extends.duration);
  const content = storageUrl(file.storage_key);
  switch (type) {
    case 'image':
      return {
        content,
        extends: { width: file.width, height: file.height, thumb: file.thumb, file_id: file.id },
        fileId: file.id,
      };
    case 'voice':
      return { content, extends: { duration: seconds, file_id: file.id }, fileId: file.id };
    case 'video': {
      if (seconds > VIDEO_MAX_S + 0.5) throw new AppError('VideoTooLong', { max: VIDEO_MAX_S });
      const { poster, width, height } = body.extends;
      return {
        content,
        extends: {
          duration: seconds,
          width: finiteOr0(width),
          height: finiteOr0(height),
          poster: typeof poster === 'string' && poster.startsWith('/storage/') ? poster : '',
          file_id: file.id,
        },
        fileId: file.id,
      };
    }
    case 'file':
      return { content, extends: { ext: file.ext, name, size: file.size, file_id: file.id }, fileId: file.id };
  }
}

/** Seconds, as the server measured them (tenths), or as the client said when it could not. */
function durationOf(file: FileRow, claimed: unknown): number {
  if (file.duration) return Math.round(file.duration / 100) / 10;
  return finiteOr0(claimed);
}

const finiteOr0 = (v: unknown) => (Number.isFinite(Number(v)) ? Number(v) : 0);

/**
 * In a group: members it names, but for those who blocked me, and everyone (0) when an owner or
 * admin says so.
 */
async function mentions(
  ctx: DraftParts,
  members: MemberLists,
  session: Session,
  chat: Chat,
  at: number[],
): Promise<number[]> {
  if (chat.kind !== 'group' || at.length === 0) return [];
  const ids = new Set(await members.of(chat));
  const mayAll = chat.member.role !== GroupRoles.Member;
  const named = at.filter((id) => (id === 0 ? mayAll : ids.has(id)));
  const people = named.filter((id) => id !== 0);
  if (people.length === 0) return named;
  const blocking = await ctx.access.blockersAmong(session.userId, people);
  return named.filter((id) => !blocking.has(id));
}

/** A quote of a message of the same chat that I can still see, or 0. */
async function quote(ctx: DraftParts, session: Session, chat: Chat, pid: number): Promise<number> {
  if (!pid) return 0;
  const quoted = await ctx.repos.messages.byId(pid);
  if (!quoted || quoted.chat_key !== chat.chatKey || quoted.is_deleted) return 0;
  return quoted.id > (await ctx.access.floor(session.userId, chat)) ? quoted.id : 0;
}
