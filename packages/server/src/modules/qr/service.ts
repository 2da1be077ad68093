import { qrLink, type QrKind, type UserPreview } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import type { Session } from '../auth';
import type { ConfigService } from '../system';
import { toUserPreview } from './presenter';
import { QrTokens, type QrSubject } from './tokens';

/** A QR code as userInfo and groupInfo hand it out (docs/protocol.md §2, §6). */
export interface QrCode {
  qrUrl: string;
  /** When the code stops working, ms. */
  qrExpire: number;
}

/** What QrService is built from. */
export interface QrParts {
  repos: Pick<Repos, 'users' | 'friends'>;
  config: Pick<ConfigService, 'secret'>;
  now: () => number;
}

/**
 * QR codes of people and groups (docs/protocol.md §6): the one place tokens are made and checked. Links name
 * `base`, the address the client reached the server at (http/public-url.ts).
 */
export class QrService {
  private readonly tokens: QrTokens;
  private readonly users: Repos['users'];
  private readonly friends: Repos['friends'];

  constructor(ctx: QrParts) {
    this.tokens = new QrTokens(() => ctx.config.secret, ctx.now);
    this.users = ctx.repos.users;
    this.friends = ctx.repos.friends;
  }

  /** A fresh code for a person or a group (in the group's current `generation`), valid seven days. */
  code(kind: QrKind, id: number, base: string, generation = 0): QrCode {
    const { token, expires } = this.tokens.sign(kind, id, generation);
    return { qrUrl: qrLink(base, kind, token), qrExpire: expires };
  }

  /** The user a genuine, unexpired person's token names (not yet checked to exist). */
  userId(token: string): number {
    return this.tokens.verify(token, 'user').id;
  }

  /**
   * The group a genuine, unexpired group token names (not yet checked to exist) and the generation
   * it was made in, for the caller to compare with the group's.
   */
  group(token: string): QrSubject {
    return this.tokens.verify(token, 'group');
  }

  /** userInfoqq: the person a scanned code names, as the scanner may see them. */
  async preview(session: Session, token: string): Promise<UserPreview> {
    const user = await this.users.byId(this.userId(token));
    if (!user || user.status !== 1) throw new AppError('UserNotFound', {}, { fields: ['token'] });
    const friend = user.id === session.userId ? undefined : await this.friends.row(session.userId, user.id);
    return toUserPreview(user, friend);
  }
}
