import * as z from 'zod';
import {
  POLL_DEADLINE_MAX_MS,
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_QUESTION_MAX,
} from '../limits';
import { clientId, flag, personText } from './fields';
import { groupId } from './group';
import { messageRef } from './im';

/** `/enterprise/im/createPoll`: starts a poll (投票) in a group, sent as a `poll` message. */
export const CreatePollBody = z
  .object({
    /** Client-made id of the poll's message: the idempotency key, as sendMessage's `id`. */
    id: clientId,
    /** The group, `group-<n>`. */
    toContactId: groupId,
    /** The question, 1–POLL_QUESTION_MAX characters. */
    question: personText(POLL_QUESTION_MAX, 1),
    /** The options in their order, POLL_OPTIONS_MIN–POLL_OPTIONS_MAX, each 1–POLL_OPTION_MAX characters, no two alike. */
    options: z.array(personText(POLL_OPTION_MAX, 1)).min(POLL_OPTIONS_MIN).max(POLL_OPTIONS_MAX),
    /** 1: a voter may choose several options. */
    multiple: flag.default(0),
    /** 1: who chose what is never told, to anyone. */
    anonymous: flag.default(0),
    /** When voting ends, ms (within POLL_DEADLINE_MAX_MS from now); 0 or absent for none. */
    deadline: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  })
  .superRefine((b, ctx) => {
    if (new Set(b.options).size !== b.options.length)
      ctx.addIssue({ code: 'custom', message: 'options repeat', path: ['options'] });
  });

/** `/enterprise/im/votePoll`: chooses options of a poll, replacing my earlier choice; an empty list withdraws it. */
export const VotePollBody = z.object({
  /** The poll's message: its msg_id or its client-made id. */
  id: messageRef,
  /** The indexes of the chosen options: exactly one for a single-choice poll, one or more otherwise, none to withdraw. */
  options: z
    .array(
      z.coerce
        .number()
        .int()
        .min(0)
        .max(POLL_OPTIONS_MAX - 1),
    )
    .max(POLL_OPTIONS_MAX),
});

/** `/enterprise/im/closePoll`: ends a poll before its deadline (its starter, the group's owner or an administrator). */
export const ClosePollBody = z.object({
  /** The poll's message: its msg_id or its client-made id. */
  id: messageRef,
});

/** `/enterprise/im/pollVoters`: who chose each option of a named (not anonymous) poll. */
export const PollVotersBody = z.object({
  /** The poll's message: its msg_id or its client-made id. */
  id: messageRef,
  /** Only this option's voters; every option's when absent. */
  option: z.coerce
    .number()
    .int()
    .min(0)
    .max(POLL_OPTIONS_MAX - 1)
    .optional(),
});

/** A poll as the caller now sees it (votePoll, closePoll): the `extends` of its message. */
export interface PollState {
  msg_id: number;
  poll_id: number;
  /** How many chose each option, in their order. */
  counts: number[];
  voters: number;
  closed: 0 | 1;
  deadline: number;
  /** The options I chose. */
  mine: number[];
}

/** One voter of an option, as pollVoters lists them (oldest vote first). */
export interface PollVoter {
  option: number;
  user_id: number;
  /** Their name as the reader sees them: the reader's remark, their group nickname, or their own name. */
  name: string;
  avatar: string;
  /** When they chose it, ms. */
  time: number;
}

/** The furthest deadline a poll made at `now` may have. */
export function pollDeadlineMax(now: number): number {
  return now + POLL_DEADLINE_MAX_MS;
}
