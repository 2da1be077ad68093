import { withQuery } from './paths';

/** The call page of the product's route table (§2). */
export const callPaths = {
  call: '/pages/message/call',
} as const;

/**
 * The call page's query (docs/product.md §2): `msg_id` the call's UUID, `type` 1 video / 0 audio, `status`
 * 1 placing the call / 3 ringing me, `id` `name` `avatar` the other person.
 */
export interface CallQuery {
  msg_id: string;
  type: 0 | 1;
  status: 1 | 3;
  id: number;
  name: string;
  avatar: string;
}

export function callPath(q: CallQuery): string {
  return withQuery(callPaths.call, { ...q });
}
