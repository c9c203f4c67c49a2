// Builds the operator dashboard into web/dist, which src/dashboard/routes.ts serves at /.
// `npm run build:web` (vite build web) runs it; `npm start` does so first (prestart).
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // `npx vite web` while working on the dashboard; the API comes from a running slotbook on :3000.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
