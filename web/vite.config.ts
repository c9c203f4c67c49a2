// Builds the operator dashboard into web/dist, which src/dashboard/routes.ts serves at /, and the booking
// pages' script (src/book, its own entry: assets/booking-*.js and .css, which src/storefront/routes.ts
// links from its pages). `npm run build:web` (vite build web) runs it; `npm start` does so first (prestart).
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      input: { index: resolve(import.meta.dirname, 'index.html'), booking: resolve(import.meta.dirname, 'src/book/main.ts') },
    },
  },
  server: {
    // `npx vite web` while working on the dashboard; the API comes from a running slotbook on :3000.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
