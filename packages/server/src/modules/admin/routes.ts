import {
  configControl,
  isConfigKey,
  translate,
  type ConfigKey,
  type Locale,
  type ManagedConfig,
  type ManagedSetting,
  type MessageKey,
} from '@sparrow/protocol';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { localeOf, ok, ValidationFailure } from '../../http/envelope';
import type { Handlers } from '../../http/route';
import type { Session } from '../auth';
import type { Actor } from './audit';
import type { AdminService } from './service';

const actor = (session: Session, req: FastifyRequest): Actor => ({ adminId: session.userId, ip: req.ip });

/** A value a setting's rule refused, said as the setting and its rule ("撤回时限须为 0–2592000 之间的整数"). */
function refusedSetting(error: unknown, key: ConfigKey, locale: Locale): unknown {
  if (!(error instanceof AppError) || error.name !== 'Validation') return error;
  const name = translate(locale, `configLabel.${key}`);
  const control = configControl(key);
  const text = (() => {
    switch (control.kind) {
      case 'number':
        return translate(locale, 'configRule.number', { name, min: control.min, max: control.max });
      case 'choice': {
        const values = control.values.map((v) => translate(locale, `configOption.${key}.${v}` as MessageKey));
        return translate(locale, 'configRule.choice', { name, values: values.join(' / ') });
      }
      case 'text':
        return control.url
          ? translate(locale, 'configRule.url', { name })
          : translate(locale, 'configRule.text', { name, max: control.max });
      case 'json':
      case 'switch':
        return translate(locale, `configRule.${control.kind}`, { name });
    }
  })();
  return new ValidationFailure(text, ['value']);
}

/**
 * `/manage/*` (docs/protocol.md §8). The route loop has already refused callers whose role is not admin
 * (403, or -1 without a session) and counted the call against the admins' own limit.
 */
export function adminRoutes(admin: AdminService): Handlers {
  const config = (req: FastifyRequest): ManagedConfig => {
    const locale = localeOf(req);
    const controlOf = (key: ConfigKey): ManagedSetting['control'] => {
      const control = configControl(key);
      if (control.kind !== 'choice') return control;
      const options = control.values.map((value) => ({
        value,
        label: translate(locale, `configOption.${key}.${value}` as MessageKey),
      }));
      return { kind: 'choice', options };
    };
    return {
      settings: admin.site.settings().map((s) => ({
        ...s,
        label: translate(locale, `configLabel.${s.key}`),
        description: translate(locale, `config.${s.key}`),
        control: controlOf(s.key),
      })),
    };
  };
  const paged = <T>(body: { page?: number | undefined }, { items, total }: { items: T[]; total: number }) =>
    ok(items, { count: total, page: body.page ?? 1 });
  return {
    manageStats: async () => admin.dashboard.stats(),
    manageUserList: async ({ body }) => paged(body, await admin.users.listUsers(body)),
    manageUserCreate: async ({ body, session, req }) => admin.users.createManagedUser(body, actor(session, req)),
    manageUserStatus: async ({ body, session, req }) => {
      await admin.users.setUserStatus(body.user_id, body.status === 1, actor(session, req));
      return null;
    },
    manageUserPassword: async ({ body, session, req }) => {
      await admin.users.setUserPassword(body.user_id, body.password, actor(session, req));
      return null;
    },
    manageUserRole: async ({ body, session, req }) => {
      await admin.users.setUserRole(body.user_id, body.role === 1, actor(session, req));
      return null;
    },
    manageUserLogout: async ({ body, session, req }) => {
      await admin.users.endUserSessions(body.user_id, actor(session, req));
      return null;
    },
    manageGroupList: async ({ body }) => paged(body, await admin.groups.listGroups(body)),
    manageGroupMembers: async ({ body }) => paged(body, await admin.groups.groupMembers(body)),
    manageGroupDisband: async ({ body, session, req }) => {
      await admin.groups.disbandGroup(body.group_id, actor(session, req));
      return null;
    },
    manageGroupOwner: async ({ body, session, req }) => {
      await admin.groups.changeGroupOwner(body.group_id, body.user_id, actor(session, req));
      return null;
    },
    manageConfigGet: async ({ req }) => config(req),
    manageConfigSet: async ({ body, session, req }) => {
      try {
        await admin.site.setConfig(body.key, body.value, actor(session, req));
      } catch (error) {
        throw isConfigKey(body.key) ? refusedSetting(error, body.key, localeOf(req)) : error;
      }
      return config(req);
    },
    manageInviteList: async ({ body }) => paged(body, await admin.site.listInvites(body)),
    manageInviteCreate: async ({ body, session, req }) =>
      admin.site.createManagedInvite(body.uses, body.days, actor(session, req)),
    manageInviteRevoke: async ({ body, session, req }) => {
      await admin.site.revokeInvite(body.code, actor(session, req));
      return null;
    },
    manageNoticeList: async ({ body }) => paged(body, await admin.site.listNotices(body)),
    manageNoticePublish: async ({ body, session, req }) =>
      admin.site.publishNotice(body.title, body.notice, actor(session, req)),
    manageNoticeDel: async ({ body, session, req }) => {
      await admin.site.withdrawNotice(body.id, actor(session, req));
      return null;
    },
    manageAuditList: async ({ body }) => paged(body, await admin.audit.list(body)),
    manageDepartmentList: async () => admin.departments.listDepartments(),
    manageDepartmentCreate: async ({ body, session, req }) =>
      admin.departments.createDepartment(body, actor(session, req)),
    manageDepartmentRename: async ({ body, session, req }) => {
      await admin.departments.renameDepartment(body.id, body.name, actor(session, req));
      return null;
    },
    manageDepartmentDel: async ({ body, session, req }) => {
      await admin.departments.deleteDepartment(body.id, actor(session, req));
      return null;
    },
    manageUserDepartment: async ({ body, session, req }) => {
      await admin.departments.setUserDepartment(body.user_id, body.dep_id, actor(session, req));
      return null;
    },
  };
}
