// A job that runs every few seconds in the background of a process: the next run is planned when the last
// one has finished, so runs never overlap, and the timer never keeps the process alive. A run that throws is
// logged and tried again at the next one.
import type { FastifyBaseLogger } from 'fastify';

/** Starts `run` every `intervalMs`; the answer stops it, waiting for a run under way. */
export function startPeriodic(log: FastifyBaseLogger, name: string, intervalMs: number, run: () => Promise<unknown>): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      await run();
    } catch (error) {
      log.warn({ err: error }, `${name} failed; retrying on the next run`);
    }
  };
  const plan = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(() => {
        running = undefined;
        plan();
      });
    }, intervalMs);
    timer.unref();
  };
  plan();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
