import type { RouteName } from '@sparrow/protocol';
import type { UserRow } from '../user';

/** `account.twoStepRequired`: 0 no one, 1 administrators, 2 everyone. */
export type TwoStepRequirement = 0 | 1 | 2;

/** True when the server requires a second factor of this user. */
export function twoStepRequired(user: Pick<UserRow, 'role'>, requirement: TwoStepRequirement): boolean {
  return requirement === 2 || (requirement === 1 && user.role === 1);
}

/**
 * True while the server requires a second factor of this user and they have none (`users.two_step`
 * 0, read with the session): their session serves only the setup (`BEFORE_TWO_STEP_SETUP`). A bot
 * (docs/protocol.md §11) signs in with no factor at all, only its token: nothing is required of it.
 */
export function needsTwoStepSetup(
  user: Pick<UserRow, 'role' | 'two_step'> & Partial<Pick<UserRow, 'is_bot'>>,
  requirement: TwoStepRequirement,
): boolean {
  return user.two_step !== 1 && user.is_bot !== 1 && twoStepRequired(user, requirement);
}

/**
 * What a user who must set up a second factor may still do: set up an authenticator app, add a
 * passkey (every `passkey*` route), read their own record and what the server asks of them, sign out.
 */
export function allowedBeforeTwoStepSetup(name: RouteName): boolean {
  return BEFORE_TWO_STEP_SETUP.has(name) || name.startsWith('passkey');
}

const BEFORE_TWO_STEP_SETUP: ReadonlySet<RouteName> = new Set([
  'twoStepStatus',
  'totpBegin',
  'totpConfirm',
  'checkuser',
  'logout',
]);
