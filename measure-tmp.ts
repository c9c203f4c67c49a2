import { readFileSync, writeFileSync } from 'node:fs';
import { resizedCopies } from './src/catalog/photos/resize.js';
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const file = readFileSync(process.argv[2]!);
const before = rss();
let peak = before;
const timer = setInterval(() => (peak = Math.max(peak, rss())), 10);
const t0 = Date.now();
try {
  const r = await resizedCopies(file);
  console.log('ok', r.width, r.height, r.sizes.map((s) => `${s.width}x${s.height}:${s.content.length}`).join(' '));
  if (process.argv[3]) writeFileSync(process.argv[3], r.sizes.at(-1)!.content);
} catch (e) { console.log('error', (e as Error).message); }
clearInterval(timer);
console.log(process.argv[2], 'before', before.toFixed(0), 'peak', peak.toFixed(0), '+', (peak - before).toFixed(0), 'ms', Date.now() - t0);
