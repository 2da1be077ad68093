import { describe, expect, it } from 'vitest';
import { routePaths } from '../nav/paths';
import { appRoutes } from './routes';

describe('the route table (docs/product.md §2)', () => {
  it('serves every path of nav/paths.ts, and no other', () => {
    expect(appRoutes.map((r) => r.path).sort()).toEqual([...routePaths].sort());
  });
});
