import type { Kysely } from 'kysely';

/**
 * The settings a Raingad client's settings dialog saves (`/enterprise/im/setting`) and reads back
 * from userInfo.setting at login: a JSON object, `{}` until it saves one. Sparrow's own client keeps
 * its app settings on the device.
 */
export function userSetting() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('setting', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  };
}
