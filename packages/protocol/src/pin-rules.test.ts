import { describe, expect, it } from 'vitest';
import { GroupRoles } from './entities';
import { PAT_WITHDRAW_MS } from './limits';
import { mayPinInGroup, patWithdrawable } from './pin-rules';

describe('pin and pat rules', () => {
  it('lets the owner and administrators pin, and members only when the group lets them', () => {
    expect(mayPinInGroup(GroupRoles.Owner, 0)).toBe(true);
    expect(mayPinInGroup(GroupRoles.Admin, 0)).toBe(true);
    expect(mayPinInGroup(GroupRoles.Member, 0)).toBe(false);
    expect(mayPinInGroup(GroupRoles.Member, 1)).toBe(true);
  });

  it('lets a pat be withdrawn up to PAT_WITHDRAW_MS after it was sent, not after', () => {
    const sent = 1_000_000;
    expect(patWithdrawable(sent, sent)).toBe(true);
    expect(patWithdrawable(sent, sent + PAT_WITHDRAW_MS)).toBe(true);
    expect(patWithdrawable(sent, sent + PAT_WITHDRAW_MS + 1)).toBe(false);
  });
});
