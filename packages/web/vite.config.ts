import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.SPARROW_API ?? 'http://localhost:8000';

/**
 * The hoisted @vitejs/plugin-react imports the root's Vite 8 (which Vitest brought in) while
 * this package builds with its own Vite 7; seeing Vite 8's rolldown it configures Oxc and a
 * rolldown-only refresh hook that makes Vite 7's dev server fail on every module. When the two
 * differ, JSX is left to Vite's own esbuild transform (tsconfig `jsx: react-jsx`): same output,
 * without Fast Refresh in dev.
 */
function reactPlugin(): PluginOption[] {
  const ours = createRequire(import.meta.url).resolve('vite');
  const plugins = createRequire(createRequire(import.meta.url).resolve('@vitejs/plugin-react'));
  return plugins.resolve('vite') === ours ? [react() as unknown as PluginOption] : [];
}

export default defineConfig({
  root,
  base: './',
  plugins: reactPlugin(),
  esbuild: { jsx: 'automatic' },
  resolve: {
    // antd-mobile's own dependencies resolve a hoisted React 18; the app must run on one React.
    dedupe: ['react', 'react-dom'],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      treeshake: {
        // Protocol modules only declare schemas and constants. Saying so lets a screen that
        // imports a constant leave out the zod schemas of modules it does not use.
        moduleSideEffects: (id) => !id.includes('/packages/protocol/src/'),
      },
    },
  },
  server: {
    proxy: {
      '/common': server,
      '/enterprise': server,
      '/storage': server,
      '/wss': { target: server, ws: true },
    },
  },
});
