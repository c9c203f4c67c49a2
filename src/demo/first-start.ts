// The demo on a fresh development install: seeded and announced (keys printed, written to a file) before
// the server listens, its photos drawn once it does. Never in production, never twice.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { announceDemo } from './announce.js';
import { addDemoActivityPhotos, seedDemoOnFirstStart } from './seed.js';

/** Seeds and announces the demo on a first start; answers what to do once the server listens. */
export async function demoOnFirstStart(db: Db, config: Config, log: FastifyBaseLogger): Promise<(() => void) | undefined> {
  const demo = config.production ? undefined : await seedDemoOnFirstStart(db);
  if (!demo) return undefined;
  announceDemo(demo, config, log);
  return () => {
    addDemoActivityPhotos(db, demo).catch((error: unknown) => log.warn({ err: error }, 'the demo activities have no photos: drawing them failed'));
  };
}
