import {
  ROBOT_MESSAGE_TYPES,
  RobotErrcodes,
  SparrowRobotBody,
  WeComRobotBody,
  type MessageKey,
  type RobotErrcode,
} from '@sparrow/protocol';

/**
 * What a robot's webhook was sent, in either shape (WeCom's `msgtype`, Sparrow's `type`), read into
 * one: a text (markdown or not) with the people it names, or an image.
 */
export type RobotPost =
  | {
      kind: 'text';
      content: string;
      /** Rendered as sanitised markdown by Sparrow's clients; older ones show the text as sent. */
      markdown: boolean;
      mentions: Mentions;
      id?: string | undefined;
    }
  | { kind: 'image'; base64: string; md5?: string | undefined; id?: string | undefined };

/** Whom a text names: by account (WeCom's userid), by phone, by user id; `all` for everyone. */
export interface Mentions {
  accounts: string[];
  phones: string[];
  ids: number[];
  all: boolean;
}

/** A refusal of what was sent, with the webhook's code for it. */
export class RobotRefusal extends Error {
  constructor(
    readonly errcode: RobotErrcode,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

const ALL = '@all';

/** `<@account>` in WeCom's markdown: a mention of that account. */
const MARKDOWN_MENTION = /<@([^<>\s]{1,128})>/g;

/** Reads a parsed JSON body as a robot's message; throws RobotRefusal for what it cannot take. */
export function readRobotPost(body: unknown): RobotPost {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new RobotRefusal(RobotErrcodes.invalidParameter, 'robot.invalidBody');
  const record = body as Record<string, unknown>;
  const wecom = 'msgtype' in record;
  const type = wecom ? record.msgtype : record.type;
  if (typeof type !== 'string' || !(ROBOT_MESSAGE_TYPES as readonly string[]).includes(type))
    throw new RobotRefusal(RobotErrcodes.invalidMessageType, 'robot.invalidType', {
      types: ROBOT_MESSAGE_TYPES.join(', '),
    });
  return wecom ? fromWeCom(record) : fromSparrow(record);
}

function fromWeCom(record: Record<string, unknown>): RobotPost {
  const parsed = WeComRobotBody.safeParse(record);
  if (!parsed.success) throw invalid(parsed.error.issues);
  const body = parsed.data;
  switch (body.msgtype) {
    case 'text': {
      const { content, mentioned_list = [], mentioned_mobile_list = [] } = body.text;
      const all = mentioned_list.includes(ALL) || mentioned_mobile_list.includes(ALL);
      return text(content, false, {
        accounts: mentioned_list.filter((a) => a !== ALL),
        phones: mentioned_mobile_list.filter((p) => p !== ALL),
        ids: [],
        all,
      });
    }
    case 'markdown':
      return markdownText(body.markdown.content, []);
    case 'image':
      return { kind: 'image', base64: body.image.base64, md5: body.image.md5 };
    case 'news':
      return text(
        body.news.articles
          .map((a) => {
            const title = `[**${escapeMarkdown(a.title)}**](${a.url.replace(/[()\s]/g, encodeURIComponent)})`;
            return a.description ? `${title}\n${a.description}` : title;
          })
          .join('\n\n'),
        true,
        none(),
      );
  }
}

function fromSparrow(record: Record<string, unknown>): RobotPost {
  const parsed = SparrowRobotBody.safeParse(record);
  if (!parsed.success) throw invalid(parsed.error.issues);
  const body = parsed.data;
  switch (body.type) {
    case 'text':
      return text(body.content, false, { ...none(), ids: body.at ?? [] }, body.id);
    case 'markdown':
      return markdownText(body.content, body.at ?? [], body.id);
    case 'image':
      return { kind: 'image', base64: body.base64, md5: body.md5, id: body.id };
  }
}

/** Markdown, its `<@account>` mentions read out of it (each stays in the text until it is resolved). */
function markdownText(content: string, ids: number[], id?: string): RobotPost {
  const accounts = [...content.matchAll(MARKDOWN_MENTION)].map((m) => m[1]!);
  return text(
    content,
    true,
    { ...none(), accounts: accounts.filter((a) => a !== 'all'), ids, all: accounts.includes('all') },
    id,
  );
}

function text(content: string, markdown: boolean, mentions: Mentions, id?: string): RobotPost {
  if (!content.trim()) throw new RobotRefusal(RobotErrcodes.emptyContent, 'robot.emptyContent');
  return { kind: 'text', content, markdown, mentions, id };
}

const none = (): Mentions => ({ accounts: [], phones: [], ids: [], all: false });

/**
 * A markdown text with its `<@account>` mentions written as `@name`: `names` by account, each
 * mention of an account not in it (no member of the group) left as the account's plain text.
 */
export function writeMentions(content: string, names: ReadonlyMap<string, string>, allName: string): string {
  return content.replace(MARKDOWN_MENTION, (_, account: string) =>
    account === 'all' ? `@${allName}` : `@${names.get(account.toLowerCase()) ?? account}`,
  );
}

/** A link's title kept as its text: the characters markdown reads in a link's text, escaped. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\[\]*_`]/g, (c) => `\\${c}`);
}

function invalid(issues: ReadonlyArray<{ path: PropertyKey[] }>): RobotRefusal {
  const field = issues[0]?.path.map(String).join('.') ?? '';
  return new RobotRefusal(RobotErrcodes.invalidParameter, 'robot.invalidField', { field });
}
