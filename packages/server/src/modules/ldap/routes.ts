import type { Handlers } from '../../http/route';
import type { LdapService } from './service';

/** `/manage/ldapGet`, `/manage/ldapSet` (docs/protocol.md §8): admins only, as every `/manage/*` route. */
export function ldapRoutes(ldap: LdapService): Handlers {
  return {
    manageLdapGet: async () => ldap.managed(),
    manageLdapSet: async ({ body, session, req }) => ldap.save(body, { adminId: session.userId, ip: req.ip }),
  };
}
