// Resizing, once, when a photo is uploaded (never per request): a JPEG of each width in PHOTO_WIDTHS no
// wider than the original (the original's own width when it is narrower than the largest). jimp is pure
// JavaScript from the npm registry (sharp would download a native binary at install): slow, seconds of
// CPU for a large photo, so it runs in a worker thread, one photo at a time per process: the server keeps
// answering bookings meanwhile, and a burst of uploads queues instead of holding many decoded bitmaps
// (docs/booking-pages.md, "Photos").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ValidationFailed } from '../../http/errors.js';

/** The widths the booking pages choose from (srcset): a phone, a tablet or a laptop, a wide screen. */
export const PHOTO_WIDTHS = [480, 960, 1600] as const;
const JPEG_QUALITY = 80;

export interface ResizedPhoto {
  width: number;
  height: number;
  content: Buffer;
}

type Resized = { width: number; height: number; sizes: ResizedPhoto[] };
type WorkerAnswer = { ok: true; width: number; height: number; sizes: { width: number; height: number; content: Uint8Array }[] } | { ok: false };

// The worker's code, plain JavaScript evaluated as a script: no file of its own to build, copy or load
// through a TypeScript loader (tsc, tsx and Vitest all run it as it is). jimp is required by the path the
// main thread resolved, so it does not depend on the process's working directory.
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Jimp } = require(workerData.jimp);
parentPort.once('message', async ({ content, widths, quality }) => {
  let image;
  try {
    image = await Jimp.read(Buffer.from(content));
  } catch {
    parentPort.postMessage({ ok: false });
    return;
  }
  const { width, height } = image;
  const targets = [...new Set(widths.map((wanted) => Math.min(wanted, width)))].sort((a, b) => b - a);
  const sizes = [];
  // Widest first, each smaller one made from the one before: scaling 1600 pixels down is far cheaper than
  // scaling the original again, and looks the same at these sizes. A PNG's transparency is laid on white
  // (a JPEG has none; jimp would make it black).
  let source = image;
  for (const target of targets) {
    const copy = source.clone();
    if (target !== copy.width) copy.resize({ w: target });
    const flat = new Jimp({ width: copy.width, height: copy.height, color: 0xffffffff }).composite(copy, 0, 0);
    const jpeg = await flat.getBuffer('image/jpeg', { quality });
    sizes.unshift({ width: copy.width, height: copy.height, content: new Uint8Array(jpeg) });
    source = copy;
  }
  parentPort.postMessage({ ok: true, width, height, sizes });
});
`;

const jimpPath = createRequire(import.meta.url).resolve('jimp');

/** One resize at a time per process: each is a decoded bitmap of up to 30 MP (120 MB) and seconds of a core. */
let queue: Promise<unknown> = Promise.resolve();

export function resizedCopies(content: Buffer): Promise<Resized> {
  const turn = queue.then(() => resizeInWorker(content));
  queue = turn.catch(() => undefined);
  return turn;
}

function resizeInWorker(content: Buffer): Promise<Resized> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { jimp: jimpPath } });
    const finish = () => void worker.terminate();
    worker.once('message', (answer: WorkerAnswer) => {
      finish();
      if (!answer.ok) {
        reject(ValidationFailed.field('Photo', 'The image is damaged: it cannot be decoded'));
        return;
      }
      const sizes = answer.sizes.map((size) => ({ width: size.width, height: size.height, content: Buffer.from(size.content) }));
      resolve({ width: answer.width, height: answer.height, sizes });
    });
    worker.once('error', (error) => {
      finish();
      reject(error);
    });
    worker.postMessage({ content: new Uint8Array(content), widths: PHOTO_WIDTHS, quality: JPEG_QUALITY });
  });
}
