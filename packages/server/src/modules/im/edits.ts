import { editable, GroupRoles, type Message, type MessageEdit, type RouteInput } from '@sparrow/protocol';
import type { Limits } from '../../lib/limits';
import { parseJson, plainText } from '../../lib/text';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import type { Access } from '../access';
import type { Session } from '../auth';
import type { ConfigService } from '../system';
import type { Hydrator } from './hydrate';
import { pushToHolders } from './reactions';
import type { KeywordScreen } from '../keywords';
import { authorizeSend } from './send/authorize';

/** What EditService is built from. */
export interface EditParts {
  repos: Pick<Repos, 'edits' | 'messages'>;
  access: Access;
  config: ConfigService;
  realtime: Realtime;
  limits: Pick<Limits, 'sendMessage'>;
  keywords: Pick<KeywordScreen, 'content'>;
  now: () => number;
}

/** How many times an edit reads the message again after another edit of it came first. */
const EDIT_ATTEMPTS = 20;

/**
 * Editing a sent text (issue 38 point 6): its sender, within `chatInfo.editTime`, while the chat
 * may still change. Each edit keeps the text it replaces as an earlier version, which the sender
 * and a group's owner and administrators may read; everyone holding the message is sent the new
 * text (`editMessage`; Raingad 6.x clients their `updateMessage`).
 */
export class EditService {
  constructor(
    private readonly ctx: EditParts,
    private readonly hydrator: Hydrator,
  ) {}

  async edit(session: Session, body: RouteInput<'editMessage'>): Promise<Message> {
    const { row: found, chat } = await this.ctx.access.message(session, body.id);
    if (found.type === 'event' || found.is_undo) throw new AppError('MessageNotFound');
    if (found.from_user !== session.userId) throw new AppError('NotYourMessage');
    const editTimeS = this.ctx.config.get().chatInfo.editTime;
    const rule = {
      mine: true,
      type: found.type,
      announcement: parseJson(found.extends).notice === 1,
      age: this.ctx.now() - found.create_time,
      editTimeS,
    };
    if (!editable({ ...rule, age: 0 })) throw new AppError('NotEditable');
    this.ctx.access.requireWritable(chat);
    if (!editable(rule)) throw new AppError('EditTooLate', { hours: Math.round(editTimeS / 3600) });
    const typed = plainText(body.content);
    if (!typed.trim()) throw new AppError('Validation', {}, { fields: ['content'] });
    // An edit cannot wait for review: a review list refuses it as a refuse list does.
    const screened = this.ctx.keywords.content(typed);
    if (screened.held) throw new AppError('KeywordRefused');
    const content = screened.text;
    // Whoever may not send here now (muted, a group only its owner or administrators speak in,
    // an ex-friend, private chat turned off) may not rewrite what they sent either.
    await authorizeSend(this.ctx, session, chat);
    // Compare-and-set on the version read: an edit another call made meanwhile is read again and
    // this one made over it, so that edits arriving at once each become one version.
    let row = found;
    for (let attempt = 0; attempt < EDIT_ATTEMPTS; attempt += 1) {
      const edited = await this.ctx.repos.edits.edit({
        msgId: row.id,
        expected: Number(row.edited_at),
        content,
        by: session.userId,
        now: this.ctx.now(),
      });
      if (edited) {
        await pushToHolders(this.ctx, edited, (toContactId) => ({
          type: 'editMessage',
          data: {
            toContactId,
            msg_id: edited.id,
            id: edited.client_id,
            content,
            edited: Number(edited.edited_at),
            sendTime: edited.create_time,
          },
        }));
        const [message] = await this.hydrator.presentMany([edited], session.user);
        return message!;
      }
      const now = await this.ctx.repos.messages.byId(row.id);
      if (!now || now.is_undo || now.is_deleted) throw new AppError('MessageNotFound');
      row = now;
    }
    throw new AppError('TooMany', { seconds: 1 });
  }

  /** The earlier versions, for the sender and a group's owner and administrators; others as a missing message. */
  async versions(session: Session, body: RouteInput<'messageEdits'>): Promise<MessageEdit[]> {
    const { row, chat } = await this.ctx.access.message(session, body.id);
    const admin =
      chat.kind === 'group' && (chat.member.role === GroupRoles.Owner || chat.member.role === GroupRoles.Admin);
    if (row.type !== 'text' || row.is_undo || (row.from_user !== session.userId && !admin))
      throw new AppError('MessageNotFound');
    return this.ctx.repos.edits.versions(row.id);
  }
}
