import type { Department } from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { DepartmentRepo } from '../user';
import { type Actor, type AuditLog, COMMAND_LINE } from './audit';
import type { LiveParts } from './live';
import type { AdminUsers } from './users';

/** Departments: the tree, creating, renaming and deleting one, and who is in which. */
export class AdminDepartments {
  constructor(
    private readonly departments: DepartmentRepo,
    private readonly users: AdminUsers,
    private readonly audit: AuditLog,
    private readonly now: () => number,
    private readonly live?: Pick<LiveParts, 'announceProfile'>,
  ) {}

  /** Every department with how many people are in it, by parent, `sort`, then id. */
  listDepartments(): Promise<Department[]> {
    return this.departments.list();
  }

  private async department(id: number, field: string) {
    const dep = await this.departments.byId(id);
    if (!dep) throw new AppError('NotFound', {}, { fields: [field] });
    return dep;
  }

  /** Creates a department, at the top level or inside another one. */
  async createDepartment(
    body: { name: string; parent_id?: number | undefined; sort?: number | undefined },
    actor: Actor = COMMAND_LINE,
  ): Promise<Department> {
    const parentId = body.parent_id ?? 0;
    if (parentId) await this.department(parentId, 'parent_id');
    const row = { name: body.name, parent_id: parentId, sort: body.sort ?? 0, create_time: this.now() };
    const id = await this.departments.insert(row);
    await this.audit.append(actor, 'departmentCreate', `department:${id}`, { name: row.name, parent_id: parentId });
    return { id, ...row, user_count: 0 };
  }

  async renameDepartment(id: number, name: string, actor: Actor = COMMAND_LINE): Promise<void> {
    const dep = await this.department(id, 'id');
    await this.departments.rename(dep.id, name);
    await this.audit.append(actor, 'departmentRename', `department:${dep.id}`, { from: dep.name, to: name });
  }

  /** Deletes a department; refused while anyone or any department is in it. */
  async deleteDepartment(id: number, actor: Actor = COMMAND_LINE): Promise<void> {
    const dep = await this.department(id, 'id');
    if (!(await this.departments.removeIfEmpty(dep.id)))
      throw new AppError('DepartmentNotEmpty', {}, { fields: ['id'] });
    await this.audit.append(actor, 'departmentDel', `department:${dep.id}`, { name: dep.name });
  }

  /** Puts a user in a department, or (0) in none. */
  async setUserDepartment(userId: number, depId: number, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.users.byId(userId);
    if (depId) await this.department(depId, 'dep_id');
    await this.departments.assign(user.id, depId, this.now());
    await this.live?.announceProfile({ ...user, dep_id: depId });
    await this.audit.append(actor, 'userDepartment', `user:${user.id}`, {
      account: user.account,
      from: user.dep_id,
      to: depId,
    });
  }

  /** The command line's form: by account. */
  async setDepartment(account: string, depId: number, actor: Actor = COMMAND_LINE): Promise<void> {
    await this.setUserDepartment((await this.users.byAccount(account)).id, depId, actor);
  }
}
