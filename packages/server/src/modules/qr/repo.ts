import type { Db } from '../../db';

/** The generations of groups' QR codes (`groups.qr_generation`). */
export class QrRepo {
  constructor(private readonly db: Db) {}

  /** Revokes every code of the group made so far. */
  async bumpGroup(groupId: number): Promise<void> {
    await this.db
      .updateTable('groups')
      .set((eb) => ({ qr_generation: eb('qr_generation', '+', 1) }))
      .where('id', '=', groupId)
      .execute();
  }
}
