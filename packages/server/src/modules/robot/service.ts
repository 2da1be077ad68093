import {
  DEFAULT_LOCALE,
  GroupRoles,
  groupNumber,
  ROBOT_IMAGE_MAX,
  ROBOT_KEY_PREFIX,
  ROBOT_WEBHOOK_PATH,
  ROBOTS_PER_GROUP_MAX,
  RobotErrcodes,
  TOKEN_TOUCH_MS,
  translate,
  UploadRobotAvatarFields,
  type GroupRobot,
  memberRole,
  type MemberRole,
  type RouteInput,
} from '@sparrow/protocol';
import type { FastifyRequest } from 'fastify';
import { createHash, randomUUID } from 'node:crypto';
import { AppError } from '../../errors';
import { localeOf, validationError } from '../../http/envelope';
import { randomToken, sha256 } from '../../lib/crypto';
import type { Limits } from '../../lib/limits';
import type { Sealer } from '../../lib/sealed';
import type { Repos } from '../../repos';
import type { Access } from '../access';
import type { Session } from '../auth';
import { groupKey, memberless } from '../group';
import type { DraftBody, SendPipeline } from '../im';
import type { FileService, UploadService } from '../upload';
import { machineAccount, type UserRow } from '../user';
import { readRobotPost, RobotRefusal, writeMentions, type Mentions, type RobotPost } from './message';
import type { RobotView } from './repo';

/** What the robot service is built from. */
export interface RobotParts {
  repos: Pick<Repos, 'robots' | 'groups' | 'users'>;
  access: Pick<Access, 'requireMember' | 'requireRole'>;
  limits: Pick<Limits, 'robotPost'>;
  sealer: Sealer;
  now: () => number;
}

/** The image types a robot posts. */
const ROBOT_IMAGE_TYPES = ['jpg', 'png', 'gif', 'webp'];

/** Who manages a group's robots. */
const MANAGERS: readonly MemberRole[] = [GroupRoles.Owner, GroupRoles.Admin];
const manages = (role: number) => MANAGERS.includes(memberRole(role));

/** A sealed key opens only in the row whose hash it has. */
const sealContext = (keyHash: string) => `robot:${keyHash}`;

/**
 * Group robots (群机器人, docs/protocol.md §10): a group's owner and administrators add, rename,
 * picture, re-key and remove them; whoever holds a robot's webhook posts into its group as it,
 * through the send pipeline (mentions and keyword lists as for any sender), at most
 * ROBOT_MESSAGES_PER_MINUTE a minute.
 */
export class RobotService {
  constructor(
    private readonly ctx: RobotParts,
    private readonly pipeline: Pick<SendPipeline, 'postAs'>,
    private readonly files: Pick<FileService, 'storeBytes'>,
    private readonly uploads: Pick<UploadService, 'avatarWithFields'>,
  ) {}

  /** A group's robots for a member; the webhooks only for its owner and administrators. */
  async list(session: Session, groupId: string, base: string): Promise<GroupRobot[]> {
    const { member } = await this.ctx.access.requireMember(session.userId, groupNumber(groupId));
    const manager = manages(member.role);
    const robots = await this.ctx.repos.robots.listOf(member.group_id);
    return robots.map((r) => this.present(r, manager ? base : undefined));
  }

  /** Adds a robot to a group whose owner or administrator the caller is; answers it with its webhook. */
  async add(session: Session, body: RouteInput<'groupRobotAdd'>, base: string): Promise<GroupRobot> {
    const { member } = await this.ctx.access.requireRole(session.userId, groupNumber(body.group_id), MANAGERS);
    const key = newKey();
    const keyHash = sha256(key);
    const now = this.ctx.now();
    const id = await this.ctx.repos.robots.add(
      machineAccount('robot', body.name, now),
      {
        group_id: member.group_id,
        key_hash: keyHash,
        key_sealed: this.ctx.sealer.seal(key, sealContext(keyHash)),
        create_user: session.userId,
        create_time: now,
      },
      ROBOTS_PER_GROUP_MAX,
    );
    if (id === 'full') throw new AppError('RobotsFull', { max: ROBOTS_PER_GROUP_MAX });
    return this.present(await this.found(id), base);
  }

  async edit(session: Session, body: RouteInput<'groupRobotEdit'>, base: string): Promise<GroupRobot> {
    const robot = await this.manageable(session, body.robot_id);
    await this.ctx.repos.robots.setProfile(robot.user_id, { realname: body.name }, this.ctx.now());
    return this.present(await this.found(robot.id), base);
  }

  /** A new webhook for the robot; the old one stops working at once. */
  async reset(session: Session, robotId: number, base: string): Promise<GroupRobot> {
    const robot = await this.manageable(session, robotId);
    const key = newKey();
    const keyHash = sha256(key);
    const sealed = this.ctx.sealer.seal(key, sealContext(keyHash));
    if (!(await this.ctx.repos.robots.rekey(robot.id, keyHash, sealed))) throw new AppError('NotFound');
    // The webhook this reset made, whichever reset made at the same time comes last.
    return this.present({ ...robot, key_hash: keyHash, key_sealed: sealed }, base);
  }

  async remove(session: Session, robotId: number): Promise<void> {
    const robot = await this.manageable(session, robotId);
    if (!(await this.ctx.repos.robots.remove(robot.id))) throw new AppError('NotFound');
  }

  /** `uploadRobotAvatar`: the robot named by the form's `robot_id` gets the picture, squared. */
  async avatar(session: Session, req: FastifyRequest, base: string): Promise<GroupRobot> {
    let robot: RobotView | undefined;
    const { url } = await this.uploads.avatarWithFields(req, async (file) => {
      const field = file.fields.robot_id;
      const sent = { robot_id: field && !Array.isArray(field) && 'value' in field ? field.value : undefined };
      const parsed = UploadRobotAvatarFields.safeParse(sent);
      if (!parsed.success) throw validationError(parsed.error, localeOf(req), sent);
      robot = await this.manageable(session, parsed.data.robot_id);
    });
    if (!robot) throw new AppError('Validation', {}, { fields: ['robot_id'] });
    await this.ctx.repos.robots.setProfile(robot.user_id, { avatar: url }, this.ctx.now());
    return this.present(await this.found(robot.id), base);
  }

  /**
   * A post to a robot's webhook: the key's robot (its group alive), its minute's budget, then the
   * message read, its mentions and image resolved, and sent as the robot. Throws RobotRefusal for
   * what the caller must change, AppError for a rule of sending that refused it.
   */
  async post(key: string, body: unknown): Promise<void> {
    const robot = key.startsWith(ROBOT_KEY_PREFIX) ? await this.ctx.repos.robots.byKeyHash(sha256(key)) : undefined;
    if (!robot) throw new RobotRefusal(RobotErrcodes.invalidKey, 'robot.invalidKey');
    const post = readRobotPost(body);
    const { groups, users } = this.ctx.repos;
    const [group, sender] = await Promise.all([groups.byId(robot.group_id), users.byId(robot.user_id)]);
    if (!group || !sender) throw new RobotRefusal(RobotErrcodes.invalidKey, 'robot.invalidKey');
    const session: Session = { id: 0, userId: sender.id, isMobile: false, user: sender };
    const chat = {
      kind: 'group' as const,
      chatKey: groupKey(group.id),
      group,
      member: memberless(group.id, GroupRoles.Admin),
    };
    // A retry of a posted id is answered before the minute's budget is counted or its image stored again.
    const compose = async (): Promise<Omit<DraftBody, 'id'>> => {
      await this.takeBudget(robot.id);
      if (post.kind === 'image') return message('image', '', [], await this.storeImage(post, sender.id));
      const { content, at } = await this.mention(group.id, post);
      return message('text', content, at);
    };
    const facts = post.kind === 'text' && post.markdown ? { markdown: 1 } : {};
    await this.pipeline.postAs(session, chat, post.id ?? randomUUID(), compose, facts);
    // Its last use, as a token's: at most once a minute.
    const now = this.ctx.now();
    if (now - robot.last_used > TOKEN_TOUCH_MS) await this.ctx.repos.robots.touch(robot.id, now);
  }

  /** One post of the robot's minute: ROBOT_MESSAGES_PER_MINUTE, then 45009. */
  private async takeBudget(robotId: number): Promise<void> {
    try {
      await this.ctx.limits.robotPost(robotId);
    } catch (err) {
      if (err instanceof AppError && err.name === 'TooMany')
        throw new RobotRefusal(RobotErrcodes.tooMany, 'robot.tooMany', err.params);
      throw err;
    }
  }

  /**
   * The people a text names, as the group's members they are (anyone else is left out), and the
   * text with them: `<@account>` in markdown written as `@name`, and in a text each one named and
   * not yet written `@name` added at its end, as WeCom's robots show them.
   */
  private async mention(groupId: number, post: Extract<RobotPost, { kind: 'text' }>) {
    const { mentions } = post;
    const allName = translate(DEFAULT_LOCALE, 'robot.allName');
    if (!named(mentions)) return { content: post.content, at: [] as number[] };
    const memberIds = await this.ctx.repos.groups.memberIds(groupId);
    const members = await this.ctx.repos.users.byIds(memberIds);
    const byAccount = new Map<string, UserRow>();
    const byPhone = new Map<string, UserRow>();
    for (const user of members.values()) {
      byAccount.set(user.account.toLowerCase(), user);
      if (user.phone) byPhone.set(user.phone, user);
    }
    const people = new Map<number, UserRow>();
    for (const a of mentions.accounts) {
      const user = byAccount.get(a.toLowerCase());
      if (user) people.set(user.id, user);
    }
    for (const p of mentions.phones) {
      const user = byPhone.get(p);
      if (user) people.set(user.id, user);
    }
    for (const id of mentions.ids) {
      const user = members.get(id);
      if (user) people.set(id, user);
    }
    const all = mentions.all || mentions.ids.includes(0);
    const at = [...people.keys(), ...(all ? [0] : [])];
    if (post.markdown) {
      const names = new Map([...byAccount].map(([account, user]) => [account, user.realname]));
      return { content: writeMentions(post.content, names, allName), at };
    }
    const tags = [...(all ? [allName] : []), ...[...people.values()].map((u) => u.realname)]
      .map((name) => `@${name}`)
      .filter((tag) => !post.content.includes(tag));
    return { content: tags.length ? `${post.content}\n${tags.join(' ')}` : post.content, at };
  }

  /** The image of a post, checked (size, md5, its bytes an image) and stored as the robot's upload; its file id. */
  private async storeImage(post: Extract<RobotPost, { kind: 'image' }>, robotUserId: number): Promise<number> {
    const base64 = post.base64.replace(/\s/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
      throw new RobotRefusal(RobotErrcodes.invalidImage, 'robot.invalidImage');
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length === 0 || bytes.length > ROBOT_IMAGE_MAX)
      throw new RobotRefusal(RobotErrcodes.invalidImage, 'robot.invalidImage');
    if (post.md5 && createHash('md5').update(bytes).digest('hex') !== post.md5.toLowerCase())
      throw new RobotRefusal(RobotErrcodes.invalidImage, 'robot.invalidImage');
    try {
      return (await this.files.storeBytes(bytes, 'image', ROBOT_IMAGE_TYPES, robotUserId)).id;
    } catch (err) {
      if (err instanceof AppError) throw new RobotRefusal(RobotErrcodes.invalidImage, 'robot.invalidImage');
      throw err;
    }
  }

  /** A robot the caller may manage: one of a group they own or administer; anyone else is told it does not exist. */
  private async manageable(session: Session, robotId: number): Promise<RobotView> {
    const robot = await this.ctx.repos.robots.byId(robotId);
    const member = robot && (await this.ctx.repos.groups.member(robot.group_id, session.userId));
    if (!robot || !member || !(await this.ctx.repos.groups.byId(robot.group_id))) throw new AppError('NotFound');
    if (!manages(member.role)) throw new AppError('Forbidden');
    return robot;
  }

  private async found(id: number): Promise<RobotView> {
    const robot = await this.ctx.repos.robots.byId(id);
    if (!robot) throw new AppError('NotFound');
    return robot;
  }

  /** A robot on the wire; with its webhook when `base` is given. */
  private present(robot: RobotView, base?: string): GroupRobot {
    return {
      id: robot.id,
      user_id: robot.user_id,
      name: robot.name,
      avatar: robot.avatar,
      create_user: robot.create_user,
      create_time: robot.create_time,
      last_used: robot.last_used,
      ...(base !== undefined && {
        url: webhookUrl(base, this.ctx.sealer.open(robot.key_sealed, sealContext(robot.key_hash))),
      }),
    };
  }
}

/** A robot's webhook: the public base, WeCom's path, the key. */
export const webhookUrl = (base: string, key: string) => `${base}${ROBOT_WEBHOOK_PATH}?key=${encodeURIComponent(key)}`;

const newKey = () => `${ROBOT_KEY_PREFIX}${randomToken(32)}`;

const named = (m: Mentions) => m.all || m.accounts.length > 0 || m.phones.length > 0 || m.ids.length > 0;

/** A robot's message as drafting reads it. */
function message(type: 'text' | 'image', content: string, at: number[], fileId?: number): Omit<DraftBody, 'id'> {
  return { type, content, at, pid: 0, extends: {}, ...(fileId !== undefined && { file_id: fileId }) };
}
