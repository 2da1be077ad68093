import { describe, expect, it, vi } from 'vitest';

vi.mock('react-router', () => ({ useLocation: vi.fn(), useNavigate: vi.fn() }));

const { backTarget, rootPath } = await import('./navigation');
const { paths } = await import('./paths');

describe('back navigation (docs/product.md §2)', () => {
  it('goes home from the chat page, whatever is behind it', () => {
    expect(backTarget('/pages/message/chat', 5, true)).toBe(paths.home);
  });

  it('goes one page back when there is one', () => {
    expect(backTarget(paths.profile, 2, true)).toBe(-1);
  });

  it('goes to the root with only one page on the stack', () => {
    expect(backTarget(paths.profile, 0, true)).toBe(paths.home);
    expect(backTarget(paths.register, 0, false)).toBe(paths.entry);
    expect(rootPath(false)).toBe('/');
  });
});
