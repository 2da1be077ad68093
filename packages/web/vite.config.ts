import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.SPARROW_API ?? 'http://localhost:8000';

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
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
