#!/usr/bin/env -S node --max-semi-space-size=4
// The `slotbook` command: the compiled service in dist/ (`npm run build`; `npm install` and `npm start`
// build it). It runs as plain JavaScript, without a TypeScript loader in memory; `npm run dev` runs the
// sources through tsx instead.
//
// --max-semi-space-size=4 (MB): V8's young generation otherwise grows to 3 x 16 MB under load, which
// costs more resident memory than it saves time for a service whose requests allocate little that lives
// (docs/benchmarks.md). It must be a command-line flag: V8 sizes the young generation before any code runs.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('slotbook is not built yet: run `npm run build` (npm install and npm start do it for you).\n');
  process.exit(1);
}
await import(cli.href);
