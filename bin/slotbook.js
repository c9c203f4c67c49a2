#!/usr/bin/env -S node --max-semi-space-size=4 --max-old-space-size=512
// The `slotbook` command: the compiled service in dist/ (`npm run build`; `npm install` and `npm start`
// build it). It runs as plain JavaScript, without a TypeScript loader in memory; `npm run dev` runs the
// sources through tsx instead.
//
// The V8 flags keep the resident memory under 200 MB under load (docs/benchmarks.md) at no measured cost
// in throughput. The service's live heap is 30 to 60 MB, but with the default heap limit (4 GB on a large
// machine) V8 lets garbage pile up to well over 100 MB before a full collection, and its young
// generation grows to 3 x 16 MB. --max-old-space-size=512 makes the old generation collect sooner and
// still leaves eight times the live heap; --max-semi-space-size=4 caps the young generation at 12 MB.
// They must be command-line flags: V8 sizes its heap before any code runs.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('slotbook is not built yet: run `npm run build` (npm install and npm start do it for you).\n');
  process.exit(1);
}
await import(cli.href);
