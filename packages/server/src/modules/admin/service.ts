import type { Repos } from '../../repos';
import type { ConfigService } from '../system';
import { AuditLog } from './audit';
import { AdminDashboard } from './dashboard';
import { AdminDepartments } from './departments';
import { AdminGroups } from './groups';
import type { LiveParts } from './live';
import { AdminSite } from './site';
import { AdminUsers } from './users';

/**
 * Every rule of administration (docs/protocol.md §8), behind both `npm run admin` and the `/manage/*`
 * routes, one part per job: users (roles, passwords, sessions), the site (settings, invite codes,
 * announcements), groups, departments and the dashboard. Every change is written to the one audit
 * log with who made it and from where.
 */
export class AdminService {
  readonly audit: AuditLog;
  readonly users: AdminUsers;
  readonly site: AdminSite;
  readonly groups: AdminGroups;
  readonly departments: AdminDepartments;
  readonly dashboard: AdminDashboard;

  constructor(
    repos: Pick<Repos, 'users' | 'sessions' | 'announcements' | 'invites' | 'groups' | 'admin' | 'departments'>,
    config: ConfigService,
    now: () => number = Date.now,
    live?: LiveParts,
  ) {
    this.audit = new AuditLog(repos.admin, now);
    this.users = new AdminUsers(repos, this.audit, now, live);
    this.site = new AdminSite(repos, config, this.audit, now);
    this.groups = new AdminGroups(repos, this.users, this.audit, live);
    this.departments = new AdminDepartments(repos.departments, this.users, this.audit, now, live);
    this.dashboard = new AdminDashboard(repos.admin, now, live);
  }
}
