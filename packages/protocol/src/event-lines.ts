import * as z from 'zod';

/**
 * The facts of an `event` line (a message of type `event`, docs/protocol.md §2): what happened, who did it
 * and to whom. The server stores them as the message's `extends` and words the line for each
 * reader from them; lines written by older servers may carry more keys, which pass through.
 */

/** Who did it: the actor of a group event. */
const actor = {
  /** The actor's user id. */
  user_id: z.number(),
  /** The actor's name when the line was written. */
  name: z.string(),
};

/** Whom it was done to: the users a group event names, with their names in the same order. */
const others = {
  user_ids: z.array(z.number()),
  names: z.array(z.string()),
};

export const EventLineSchema = z.discriminatedUnion('event', [
  /** A message was withdrawn, by its sender or by a group's owner or administrator. */
  z.looseObject({
    event: z.literal('undo'),
    /** The sender of the withdrawn message. */
    user_id: z.number(),
    name: z.string(),
    /** Who withdrew it (the sender, or an owner or administrator). */
    by: z.number(),
    by_name: z.string(),
    /** The withdrawn message's type. */
    original_type: z.string(),
    /** The withdrawn text, for its sender only (to edit it again, within REEDIT_WINDOW_MS). */
    original: z.string().optional(),
    /** When it was withdrawn, ms; absent on lines written before it was kept. */
    undone_at: z.number().optional(),
  }),
  /** A group was created. */
  z.looseObject({ event: z.literal('create'), ...actor }),
  /** The actor invited users into a group. */
  z.looseObject({ event: z.literal('invite'), ...actor, ...others }),
  /** The actor removed a member. */
  z.looseObject({ event: z.literal('remove'), ...actor, ...others }),
  /** The actor left the group. */
  z.looseObject({ event: z.literal('leave'), ...actor }),
  /** The owner disbanded the group (the chat stays, read-only). */
  z.looseObject({ event: z.literal('disband'), ...actor }),
  /** The actor changed who may speak: 0 everyone, 1 the owner and administrators, 2 the owner. */
  z.looseObject({ event: z.literal('nospeak'), ...actor, nospeak: z.number() }),
  /** The actor joined by scanning the group's QR code. */
  z.looseObject({ event: z.literal('join'), ...actor }),
  /** The owner made a member an administrator. */
  z.looseObject({ event: z.literal('setManager'), ...actor, ...others }),
  /** The owner made an administrator a member again. */
  z.looseObject({ event: z.literal('unsetManager'), ...actor, ...others }),
  /** The owner handed the group over. */
  z.looseObject({ event: z.literal('changeOwner'), ...actor, ...others }),
  /** A member was muted. */
  z.looseObject({
    event: z.literal('mute'),
    ...actor,
    ...others,
    /** The mute's length: 1 ten minutes, 2 an hour, 3 three hours, 4 a day (docs/product.md §9). */
    timer: z.number(),
  }),
  /** A member's mute was lifted. */
  z.looseObject({
    event: z.literal('unmute'),
    ...actor,
    ...others,
    /** 0: lifted. */
    timer: z.number(),
  }),
  /** The group was renamed. */
  z.looseObject({
    event: z.literal('rename'),
    ...actor,
    /** The new name. */
    title: z.string(),
  }),
  /** The group's announcement changed. */
  z.looseObject({ event: z.literal('notice'), ...actor }),
  /** The actor pinned a message in the chat (置顶消息). */
  z.looseObject({
    event: z.literal('pin'),
    ...actor,
    /** The pinned message. */
    msg_id: z.number(),
    /** Its one-line preview when pinned (protocol `messagePreview`, in the actor's language); empty in a group that hides earlier history. */
    preview: z.string(),
  }),
  /** The actor took a message's pin off. */
  z.looseObject({
    event: z.literal('unpin'),
    ...actor,
    /** The message. */
    msg_id: z.number(),
    /** Its one-line preview (protocol `messagePreview`, in the actor's language); empty in a group that hides earlier history. */
    preview: z.string(),
  }),
  /** The actor patted someone in the chat (拍一拍); the patter may withdraw it for PAT_WITHDRAW_MS. */
  z.looseObject({
    event: z.literal('pat'),
    ...actor,
    /** Who was patted (the actor themself when they patted their own avatar), and their name. */
    target_id: z.number(),
    target_name: z.string(),
    /** The patted person's pat suffix when patted ("的肩膀"), '' for none. */
    suffix: z.string(),
  }),
  /** An administrator took the message down after a report: it reads as removed for everyone. */
  z.looseObject({
    event: z.literal('takedown'),
    /** The sender of the message taken down, and their name. */
    user_id: z.number(),
    name: z.string(),
    /** The message's type. */
    original_type: z.string(),
    /** When, ms. */
    taken_at: z.number(),
  }),
  /** A notice from `system`: a report I made was closed; `action` what was done (`dismiss`: nothing). */
  z.looseObject({
    event: z.literal('reportClosed'),
    report_id: z.number(),
    /** What I reported: user, message, group or moment. */
    kind: z.string(),
    action: z.string(),
  }),
  /** A notice from `system`: an administrator upheld a report about my account, message, group or post. */
  z.looseObject({
    event: z.literal('reportWarning'),
    report_id: z.number(),
    kind: z.string(),
    /** The report's reason, one of REPORT_REASONS. */
    reason: z.string(),
  }),
  /** A notice from `system`: my account signed in on a device it had not signed in on before. */
  z.looseObject({
    event: z.literal('signInNewDevice'),
    /** The new session. */
    session_id: z.number(),
    /** The device, as protocol's `deviceName` reads its user agent. */
    browser: z.string(),
    os: z.string(),
    /** Its approximate place while `sysInfo.ipregion` is on ('' otherwise or unknown); `lan` a local address. */
    place: z.string(),
    lan: z.boolean(),
    /** When, ms. */
    at: z.number(),
  }),
  /** A notice from `system`: someone asks to be my friend. */
  z.looseObject({
    event: z.literal('friendRequest'),
    /** The request. */
    friend_id: z.number(),
    /** Who asks, and their name. */
    user_id: z.number(),
    name: z.string(),
  }),
  /** A notice from `system`: someone accepted my friend request. */
  z.looseObject({
    event: z.literal('friendAccepted'),
    /** The request. */
    friend_id: z.number(),
    /** Who accepted, and their name. */
    user_id: z.number(),
    name: z.string(),
  }),
]);

/** An event line's facts, told apart by `event`. */
export type EventLine = z.infer<typeof EventLineSchema>;

/** The kinds of event line. */
export type EventKind = EventLine['event'];
