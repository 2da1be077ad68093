import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { localeParts } from './tools/locale-parts';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [localeParts()],
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
