// The embed script's size as websites download it: raw, gzip (level 9, as served) and brotli.
// Run: npx tsx bench/embed-size.ts (the target is under 5 KB gzipped; test/embed checks it too).
import { loadScript } from '../src/embed/routes.js';

for (const name of ['embed.js', 'frame.js'] as const) {
  const file = loadScript(name);
  console.log(`${name}: ${file.body.length} B raw, ${file.gzip.length} B gzip, ${file.br.length} B brotli`);
}
