import { APP_VERSION, APP_VERSION_CODE, groupNumber, RAINGAD_NEWEST_CODE, type VersionInfo } from '@sparrow/protocol';
import type { ServerConfig } from '../../config';
import { localeOf, ok } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import { translate } from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { Realtime } from '../../realtime/realtime';
import type { Access } from '../access';
import type { ConfigService } from './config-service';

/** Compares dotted versions; negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** getSystemInfo, checkVersion, bindGroup. */
export function systemRoutes(ctx: {
  env: Pick<ServerConfig, 'publicUrl'>;
  config: ConfigService;
  realtime: Pick<Realtime, 'hub'>;
  access: Access;
}): Handlers {
  const access = ctx.access;
  return {
    getSystemInfo: async ({ session, req }) => ctx.config.publicConfig(session !== null, localeOf(req)),
    checkVersion: async ({ body, req }) => {
      // Raingad apps send their build's version code (a date, 20250916) instead of a version; the
      // newest of their builds is current.
      const current = /^[0-9]{8}$/.test(body.release)
        ? Number(body.release) >= RAINGAD_NEWEST_CODE
        : body.release !== '' && compareVersions(body.release, APP_VERSION) >= 0;
      const locale = localeOf(req);
      const info: VersionInfo = {
        versionName: APP_VERSION,
        versionCode: APP_VERSION_CODE,
        updateType: 'solicit',
        versionInfo: current
          ? translate(locale, 'version.current')
          : translate(locale, 'version.update', { version: APP_VERSION }),
        downloadUrl: current ? '' : `${ctx.env.publicUrl}/`,
      };
      return ok(info);
    },
    bindGroup: async ({ body, session }) => {
      // A socket of the caller's own: another user's live socket reads as one that does not exist.
      if (ctx.realtime.hub.get(body.client_id)?.userId !== session.userId)
        throw new AppError('ClientNotLive', {}, { fields: ['client_id'] });
      if (!/^group-[1-9][0-9]*$/.test(body.group_id)) throw new AppError('Validation', {}, { fields: ['group_id'] });
      // Pushes are routed by membership, so binding only confirms the caller belongs to the group.
      await access.requireMember(session.userId, groupNumber(body.group_id));
      return null;
    },
  };
}
