import type { Code } from './codes';
import type { Contact } from './entities';

/** Every JSON response (docs/protocol.md §1). */
export interface Envelope<T = unknown> {
  code: Code | number;
  msg: string;
  data: T;
  count?: number;
  page?: number;
  /**
   * getContacts: the `system` pseudo-contact (friend-request notices), beside the list rather than
   * in it. The original server listed only `admin_notice`, and Raingad clients show every `is_group`
   * 2 row alike, as 系统通知.
   */
  system?: Contact;
}

/** `data` of a validation failure: the names of the bad fields. */
export interface ValidationData {
  fields: string[];
}
