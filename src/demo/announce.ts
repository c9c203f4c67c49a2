// How the first start hands the demo keys to a newcomer without putting them into a log.
//
// In a terminal (`npm install && npm start`) the keys are printed, as the README promises. Anywhere else
// the standard output is a log (a service manager, a container, a CI job): there the keys go to a file
// that only this user can read, in the data directory, and the log says where (at warn level, so that
// LOG_LEVEL=warn does not hide it), with the keys' public lookup parts (which name a key, but cannot be
// used as one).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DemoSeed } from './seed.js';

export const DEMO_KEYS_FILE = 'demo-keys.txt';

interface Output {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** `sbk_<lookup>_…`: enough to recognise a key in the dashboard's key list, useless to call the API. */
export const publicPart = (key: string): string => `${key.slice(0, 'sbk_'.length + 16)}_…`;

export function announceDemo(demo: DemoSeed, config: Config, log: FastifyBaseLogger, output: Output = process.stdout): void {
  const text = demo.announcement(config.publicUrl);
  if (output.isTTY) {
    output.write(text);
    return;
  }
  const file = join(config.dataDir, DEMO_KEYS_FILE);
  const keys = { ota: publicPart(demo.keys.ota), usage: publicPart(demo.keys.usage), admin: publicPart(demo.keys.admin) };
  try {
    mkdirSync(config.dataDir, { recursive: true });
    // Written under another name with mode 0600 from the start, then renamed: never readable by others,
    // not even for a moment, and never half-written.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, text, { mode: 0o600 });
    renameSync(partial, file);
    // At warn, so that an instance that logs only warnings and errors (LOG_LEVEL=warn) still says where the keys are.
    log.warn(
      { keysFile: file, keys },
      `demo data created (operator "Demo Adventures"); its keys and its owner's dashboard sign-in are in ${file}, readable only by this user`,
    );
  } catch (error) {
    log.warn({ err: error, keys }, `demo data created, but its keys could not be written to ${file}; create new ones with: npx slotbook seed --demo`);
  }
}
