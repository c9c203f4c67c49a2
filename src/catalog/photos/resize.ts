// Resizing, once, when a photo is uploaded (never per request): a JPEG of each width in PHOTO_WIDTHS no
// wider than the original (the original's own width when it is narrower than the largest). Decoding and
// resizing are pure JavaScript and WebAssembly from the npm registry (sharp would download a native binary
// at install): they run in a worker thread, one photo at a time per process, so the server keeps answering
// bookings meanwhile and a burst of uploads queues instead of holding many bitmaps (docs/booking-pages.md,
// "Photos"). The worker's memory is bounded twice: its decoders refuse, before allocating, what would take
// more than PHOTO_DECODE_BUDGET (bitmaps live outside the V8 heap), and resourceLimits bound its heap; a
// worker that reaches them dies alone and the upload is answered 422, never a crash of the server.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { MAX_PHOTO_PIXELS, MIN_PHOTO_SIDE, PHOTO_DECODE_BUDGET, PHOTO_WORKER_HEAP_MB, refusedPhoto } from './rules.js';
import { RESIZE_WORKER_CODE, type ResizeLimits, type WorkerAnswer, type WorkerPaths } from './resize-worker.js';

/** The widths the booking pages choose from (srcset): a phone, a tablet or a laptop, a wide screen. */
export const PHOTO_WIDTHS = [480, 960, 1600] as const;
const JPEG_QUALITY = 80;

export interface ResizedPhoto {
  width: number;
  height: number;
  content: Buffer;
}

type Resized = { width: number; height: number; sizes: ResizedPhoto[] };

const require = createRequire(import.meta.url);
const jimp = require.resolve('jimp');
const paths: WorkerPaths = {
  jimp,
  jimpCore: createRequire(jimp).resolve('@jimp/core'),
  pngjs: dirname(require.resolve('pngjs/lib/parser.js')),
  jpegTurboWasm: require.resolve('@cwasm/jpeg-turbo/jpeg-turbo.wasm'),
};
const limits: ResizeLimits = {
  maxPixels: MAX_PHOTO_PIXELS,
  minSide: MIN_PHOTO_SIDE,
  widths: PHOTO_WIDTHS,
  largestWidth: Math.max(...PHOTO_WIDTHS),
  budget: PHOTO_DECODE_BUDGET,
};

/** One resize at a time per process: each holds up to PHOTO_DECODE_BUDGET and a core for a while. */
let queue: Promise<unknown> = Promise.resolve();

export function resizedCopies(content: Buffer): Promise<Resized> {
  const turn = queue.then(() => resizeInWorker(content));
  queue = turn.catch(() => undefined);
  return turn;
}

function resizeInWorker(content: Buffer): Promise<Resized> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(RESIZE_WORKER_CODE, {
      eval: true,
      workerData: { paths, limits },
      // The heap holds jimp's code and the JPEG encoder's arrays, not the bitmaps (ArrayBuffers and
      // WebAssembly memory are outside it: the decoders' budget bounds those).
      resourceLimits: { maxOldGenerationSizeMb: PHOTO_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 8 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      outcome();
    };
    worker.once('message', (answer: WorkerAnswer) =>
      settle(() => {
        if (!answer.ok) return reject(refusedPhoto(answer.refusal));
        const sizes = answer.sizes.map((size) => ({ width: size.width, height: size.height, content: Buffer.from(size.content) }));
        resolve({ width: answer.width, height: answer.height, sizes });
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? refusedPhoto({ reason: 'memory' }) : error)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`The photo resizer stopped (exit code ${code}) before it answered`))));
    worker.postMessage({ content: new Uint8Array(content), widths: PHOTO_WIDTHS, quality: JPEG_QUALITY });
  });
}
