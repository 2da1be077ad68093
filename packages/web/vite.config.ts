import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { localeParts } from './tools/locale-parts';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.SPARROW_API ?? 'http://localhost:8000';

export default defineConfig({
  root,
  base: './',
  plugins: [
    react(),
    // Each locale in two chunks, the sections the login page needs and the rest (src/i18n/index.ts).
    localeParts(),
    // The installable app: a web manifest and a service worker (src/sw.ts) that caches the shell
    // and shows pushes. The app registers it itself after the first paint (src/app/pwa.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,woff2}'] },
      manifest: {
        name: 'Sparrow',
        short_name: 'Sparrow',
        description: 'Sparrow IM',
        lang: 'zh-Hans',
        start_url: './',
        scope: './',
        display: 'standalone',
        background_color: '#EDEDED',
        theme_color: '#EDEDED',
        icons: [
          { src: 'pwa-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'pwa-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
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
