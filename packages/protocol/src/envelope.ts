import type { Code } from './codes';

/** Every JSON response (api.md §1). */
export interface Envelope<T = unknown> {
  code: Code | number;
  msg: string;
  data: T;
  count?: number;
  page?: number;
}

/** `data` of a validation failure: the names of the bad fields. */
export interface ValidationData {
  fields: string[];
}
