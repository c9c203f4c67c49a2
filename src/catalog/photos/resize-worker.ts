// The code of the resizer's worker thread (src/catalog/photos/resize.ts starts it), plain JavaScript
// evaluated as a script: no file of its own to build, copy or load through a TypeScript loader (tsc, tsx
// and Vitest all run it as it is). Each library is required by the path the main thread resolved.
//
// Every limit is judged on the header the decoder itself reads, right before it allocates, never on a
// parse of our own (a file can carry two headers, or hide its frame where a simpler parse does not look):
// - JPEG: libjpeg-turbo (TurboJPEG), compiled to WebAssembly (the .wasm of @cwasm/jpeg-turbo). It reads
//   the header, then decodes already scaled down by n/8 (the smallest scale that still gives the widest
//   size): a 12-megapixel photo becomes a 2000-pixel bitmap of 12 MB, where jpeg-js (jimp's decoder)
//   needed over 400 MB for the full picture. Its memory has a ceiling the WebAssembly VM enforces.
// - PNG: pngjs's own chunk parser, then the image data inflated with zlib's maxOutputLength set to exactly
//   what the last IHDR (the one pngjs decodes) needs: more data is a damaged file, never more memory.
// Bitmaps are ArrayBuffers and WebAssembly memory, outside the V8 heap that the worker's resourceLimits
// bound: what a decode holds at once is bounded by the budget before it is allocated (PNG: computed from
// the header; JPEG: the WebAssembly memory's ceiling plus the bitmaps made after it). Errors are answered
// as a refusal the main thread words.

/** Why the worker did not make the sizes; the main thread words each (rules.ts). */
export type Refusal =
  | { reason: 'damaged' | 'cmyk' }
  | { reason: 'pixels' | 'small'; width: number; height: number }
  /** Past the decode budget (needs: the estimate), or the worker's heap limit (nothing known). */
  | { reason: 'memory'; width?: number; height?: number; needs?: number };

export interface ResizeLimits {
  maxPixels: number;
  minSide: number;
  /** The widths made (PHOTO_WIDTHS); a JPEG is decoded scaled down to no less than the largest. */
  widths: readonly number[];
  largestWidth: number;
  /** Bytes the decode may hold at once (estimated from the header, before anything is allocated). */
  budget: number;
}

export interface WorkerPaths {
  jimp: string;
  jimpCore: string;
  /** pngjs's lib/ folder: its chunk parser, filters, bitmapper and format normaliser. */
  pngjs: string;
  jpegTurboWasm: string;
}

export type WorkerAnswer =
  | { ok: true; width: number; height: number; sizes: { width: number; height: number; content: Uint8Array }[] }
  | { ok: false; refusal: Refusal };

export const RESIZE_WORKER_CODE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const zlib = require('node:zlib');
const { paths, limits } = workerData;
const { defaultFormats, defaultPlugins, ResizeStrategy } = require(paths.jimp);
const { createJimp } = require(paths.jimpCore);
const PngParser = require(paths.pngjs + '/parser.js');
const SyncReader = require(paths.pngjs + '/sync-reader.js');
const pngFilter = require(paths.pngjs + '/filter-parse-sync.js');
const pngBitmapper = require(paths.pngjs + '/bitmapper.js');
const pngNormalise = require(paths.pngjs + '/format-normaliser.js');
const pngInterlace = require(paths.pngjs + '/interlace.js');

class Refused extends Error {
  constructor(refusal) {
    super(refusal.reason);
    this.refusal = refusal;
  }
}

/** The size the decoder found, before any pixel is decoded. */
function judge(width, height) {
  if (!(width > 0 && height > 0)) throw new Refused({ reason: 'damaged' });
  if (width * height > limits.maxPixels) throw new Refused({ reason: 'pixels', width, height });
  if (Math.min(width, height) < limits.minSide) throw new Refused({ reason: 'small', width, height });
}

function withinBudget(bytes, width, height) {
  if (bytes > limits.budget) throw new Refused({ reason: 'memory', width, height, needs: Math.ceil(bytes) });
}

// jimp's default resize (two passes that average the pixels a smaller one covers) keeps a float buffer of
// the new width by the old height (16 bytes a pixel), the result and its copy. Scaling down by at most
// 1.5 (a JPEG's decoded bitmap to the widest size: libjpeg's n/8 scaling already averaged) is done
// bilinearly instead, into the result alone: it looks the same at that ratio.
const gentle = (width, target) => width <= 1.5 * target;
function resizeBytes(width, height, target, targetHeight) {
  return gentle(width, target) ? 4 * target * targetHeight : 16 * target * height + 8 * target * targetHeight;
}

/**
 * What making the sizes holds at most after decoding, if nothing is collected in between; each size is
 * made from the one before. A JPEG may be turned by its EXIF orientation first (a copy of
 * the bitmap, sides swapped): both ways are counted, the larger kept.
 */
function afterDecode(width, height, turnable) {
  const sizes = (sourceWidth, sourceHeight) => {
    let bytes = 0;
    let [w, h] = [sourceWidth, sourceHeight];
    const targets = [...new Set(limits.widths.map((wanted) => Math.min(wanted, sourceWidth)))].sort((a, b) => b - a);
    for (const target of targets) {
      const targetHeight = Math.max(1, Math.round((sourceHeight * target) / sourceWidth));
      if (target !== w || targetHeight !== h) bytes += resizeBytes(w, h, target, targetHeight);
      [w, h] = [target, targetHeight];
    }
    return bytes;
  };
  if (!turnable) return sizes(width, height);
  return 4 * width * height + Math.max(sizes(width, height), sizes(height, width));
}

// What the first decode found, for the answer: the original's size, and the bitmap's before any EXIF turn.
let found;

// JPEG: TurboJPEG's API (tjInitDecompress, tjDecompressHeader3, tjDecompress2). libjpeg's fatal errors
// longjmp; here that throws, which ends the decode (each instance is used once and dropped).
const TJPF_RGBA = 7;
const TJCS_CMYK = 3;
const TJCS_YCCK = 4;
const PAGE = 65536;
// Bytes per pixel of the DCT coefficients libjpeg keeps whole for a progressive or multi-scan JPEG (two
// per sample), by TurboJPEG's subsampling code: 4:4:4, 4:2:2, 4:2:0, grey, 4:4:0, 4:1:1. Used only to
// word a refusal: the ceiling is what bounds them.
const COEFFICIENT_BYTES = [6, 4, 3, 2, 4, 3];
const turboBytes = readFileSync(paths.jpegTurboWasm);
const abort = (what) => () => {
  throw new Error('libjpeg: ' + what);
};

/**
 * The module with a ceiling on its memory, in pages: the WebAssembly VM refuses to grow it further, so
 * malloc fails inside libjpeg, which stops with an error. libjpeg's needs are not told before decoding (a
 * progressive JPEG keeps every DCT coefficient, two bytes a sample: up to 6 bytes a pixel), so the VM
 * bounds them instead of an estimate. The module declares one memory without a maximum (checked here: a
 * new build of it that did otherwise would stop every JPEG, loudly, not decode without a ceiling).
 */
function turboWithCeiling(pages) {
  const bytes = turboBytes;
  let at = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const toLeb = (value) => {
    const out = [];
    do {
      let byte = value % 128;
      value = Math.floor(value / 128);
      if (value > 0) byte |= 0x80;
      out.push(byte);
    } while (value > 0);
    return out;
  };
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++];
    const size = leb();
    const content = at;
    if (id === 5) {
      const count = leb();
      const flags = bytes[at++];
      const minimum = leb();
      if (count !== 1 || flags !== 0 || at !== content + size || minimum > pages) throw new Error('libjpeg: unexpected memory section');
      const section = [1, 1, ...toLeb(minimum), ...toLeb(pages)];
      return new WebAssembly.Module(Buffer.concat([bytes.subarray(0, start), Buffer.from([5, ...toLeb(section.length), ...section]), bytes.subarray(content + size)]));
    }
    at = content + size;
  }
  throw new Error('libjpeg: no memory section');
}

function turboInstance(pages) {
  return new WebAssembly.Instance(turboWithCeiling(pages), {
    env: { setjmp: () => 0, longjmp: abort('error') },
    wasi_snapshot_preview1: {
      environ_sizes_get: () => 0,
      environ_get: abort('environ_get'),
      proc_exit: abort('proc_exit'),
      fd_close: abort('fd_close'),
      fd_seek: abort('fd_seek'),
      fd_write: abort('fd_write'),
    },
  }).exports;
}

/**
 * An instance holding the file, its decompressor and the header's four numbers (zero if libjpeg stopped
 * before it read them); ok is false if it stopped, or warned (corrupt data: such a file is refused).
 */
function turboLoaded(bytes, pages) {
  const wasm = turboInstance(pages);
  const input = wasm.malloc(bytes.length);
  const header = wasm.malloc(16);
  const decoder = wasm.tjInitDecompress();
  if (!input || !header || !decoder) return { ok: false, width: 0, height: 0 };
  new Uint8Array(wasm.memory.buffer, input, bytes.length).set(bytes);
  new Int32Array(wasm.memory.buffer, header, 4).fill(0);
  let status;
  try {
    status = wasm.tjDecompressHeader3(decoder, input, bytes.length, header, header + 4, header + 8, header + 12);
  } catch {
    status = -1;
  }
  const [width, height, subsampling, colourspace] = new Int32Array(wasm.memory.buffer, header, 4);
  return { ok: status === 0, wasm, input, decoder, width, height, subsampling, colourspace };
}

function decodeJpeg(bytes) {
  // First the header alone, in an instance just large enough for the file. The size it read is judged
  // first, even if libjpeg then found the file corrupt.
  const loaded = turboLoaded(bytes, Math.ceil(bytes.length / PAGE) + 64);
  const { width, height, subsampling, colourspace } = loaded;
  if (width > 0 && height > 0) judge(width, height);
  if (!loaded.ok) throw new Refused({ reason: 'damaged' });
  if (colourspace === TJCS_CMYK || colourspace === TJCS_YCCK) throw new Refused({ reason: 'cmyk' });
  // libjpeg scales by n/8 while decoding: the smallest n that still gives the widest size.
  let eighths = 8;
  while (eighths > 1 && Math.ceil((width * (eighths - 1)) / 8) >= limits.largestWidth) eighths -= 1;
  const bitmapWidth = Math.ceil((width * eighths) / 8);
  const bitmapHeight = Math.ceil((height * eighths) / 8);
  const bitmap = bitmapWidth * bitmapHeight * 4;
  // What the WebAssembly memory may take: the budget less what making the sizes holds after it.
  const after = afterDecode(bitmapWidth, bitmapHeight, true);
  const ceiling = limits.budget - after;
  const least = bytes.length + bitmap + 4 * 1024 * 1024; // the file, the bitmap, libjpeg's rows and tables
  if (ceiling < least) throw new Refused({ reason: 'memory', width, height, needs: least + after });
  const pages = Math.floor(ceiling / PAGE);
  let decoded = null;
  try {
    const again = turboLoaded(bytes, pages);
    const output = again.ok && again.wasm.malloc(bitmap);
    // A warning (corrupt data libjpeg would paint grey) answers -1 too: such a file is refused as damaged.
    if (output && again.wasm.tjDecompress2(again.decoder, again.input, bytes.length, output, bitmapWidth, bitmapWidth * 4, bitmapHeight, TJPF_RGBA, 0) === 0)
      // A view of the WebAssembly memory, not a copy: nothing calls into the instance again.
      decoded = Buffer.from(again.wasm.memory.buffer, output, bitmap);
  } catch {
    decoded = null;
  }
  if (!decoded) {
    // libjpeg does not say why it stopped. Where the ceiling is below what a progressive decode of this
    // header may need, running out of it is the likely cause; otherwise the file is damaged.
    const mayNeed = least + width * height * (COEFFICIENT_BYTES[subsampling] ?? 8);
    throw new Refused(ceiling < mayNeed ? { reason: 'memory', width, height, needs: mayNeed + after } : { reason: 'damaged' });
  }
  found = { width, height, bitmapWidth, bitmapHeight, alpha: false };
  return { data: decoded, width: bitmapWidth, height: bitmapHeight };
}

// PNG: pngjs's chunk parser, as pngjs's own decoder uses it (each IHDR replaces the one before; the last
// is what it decodes), then the same steps with the inflated size bounded.
function inflatedSize(header) {
  const rowBytes = (width) => ((width * header.bpp * header.depth + 7) >> 3) + 1; // + the filter byte
  if (!header.interlace) return rowBytes(header.width) * header.height;
  return pngInterlace.getImagePasses(header.width, header.height).reduce((sum, pass) => sum + rowBytes(pass.width) * pass.height, 0);
}

function decodePng(bytes) {
  let header;
  let failure;
  const compressed = [];
  const reader = new SyncReader(bytes);
  new PngParser(
    {},
    {
      read: reader.read.bind(reader),
      error: (error) => {
        failure = failure || error;
      },
      metadata: (next) => {
        header = next;
      },
      gamma: () => {},
      palette: (palette) => {
        header.palette = palette;
      },
      transColor: (colour) => {
        header.transColor = colour;
      },
      simpleTransparency: () => {
        header.alpha = true;
      },
      inflateData: (data) => compressed.push(data),
    },
  ).start();
  try {
    reader.process();
  } catch (error) {
    failure = failure || error; // a truncated file, or what follows a broken chunk
  }
  if (!header) throw new Refused({ reason: 'damaged' });
  const { width, height } = header;
  judge(width, height); // what the header declares is refused first, even if the rest is broken
  if (failure || compressed.length === 0) throw new Refused({ reason: 'damaged' });
  const inflated = inflatedSize(header);
  const bitmap = width * height * 4;
  // The file and its joined image data, the inflated data (inflated, unfiltered by rows and joined again:
  // three times), the bitmap (16-bit samples: twice as wide, then narrowed) and the sizes.
  withinBudget(2 * bytes.length + 3 * inflated + (header.depth === 16 ? 3 : 1) * bitmap + afterDecode(width, height, false), width, height);
  let data;
  try {
    data = zlib.inflateSync(Buffer.concat(compressed), { maxOutputLength: inflated });
  } catch {
    throw new Refused({ reason: 'damaged' }); // more data than the size needs (a bomb), or broken
  }
  compressed.length = 0;
  if (data.length !== inflated) throw new Refused({ reason: 'damaged' });
  const pixels = pngNormalise(pngBitmapper.dataToBitMap(pngFilter.process(data, header), header), header, false);
  found = { width, height, bitmapWidth: width, bitmapHeight: height, alpha: header.alpha || header.transColor !== undefined };
  return { data: pixels, width, height };
}

const jpeg = defaultFormats.map((format) => format()).find((format) => format.mime === 'image/jpeg');
const Photo = createJimp({
  plugins: defaultPlugins,
  formats: [() => ({ mime: 'image/jpeg', encode: jpeg.encode, decode: decodeJpeg }), () => ({ mime: 'image/png', decode: decodePng })],
});

/** Lays transparent pixels on white, in place (a JPEG has no transparency; jimp would make it black). */
function onWhite(bitmap) {
  const data = bitmap.data;
  for (let at = 0; at < data.length; at += 4) {
    const alpha = data[at + 3];
    if (alpha === 255) continue;
    for (let channel = at; channel < at + 3; channel += 1) data[channel] = Math.round((data[channel] * alpha + 255 * (255 - alpha)) / 255);
    data[at + 3] = 255;
  }
}

parentPort.once('message', async ({ content, widths, quality }) => {
  let image;
  try {
    image = await Photo.fromBuffer(Buffer.from(content));
  } catch (error) {
    parentPort.postMessage({ ok: false, refusal: error instanceof Refused ? error.refusal : { reason: 'damaged' } });
    return;
  }
  // jimp turned the bitmap as its EXIF orientation says: the original's sides turn with it.
  const turned = image.width !== found.bitmapWidth || image.height !== found.bitmapHeight;
  const width = turned ? found.height : found.width;
  const height = turned ? found.width : found.height;
  if (found.alpha) onWhite(image.bitmap);
  const targets = [...new Set(widths.map((wanted) => Math.min(wanted, width)))].sort((a, b) => b - a);
  const sizes = [];
  // Widest first, each size made from the one before by resizing the one image again (no copies):
  // scaling 1600 pixels down is far cheaper than scaling the original again, and looks the same.
  // Heights follow the original's proportions (the decoder's n/8 scale rounds up).
  for (const target of targets) {
    const targetHeight = Math.max(1, Math.round((height * target) / width));
    if (image.width !== target || image.height !== targetHeight)
      image.resize(gentle(image.width, target) ? { w: target, h: targetHeight, mode: ResizeStrategy.BILINEAR } : { w: target, h: targetHeight });
    const encoded = await image.getBuffer('image/jpeg', { quality });
    sizes.unshift({ width: image.width, height: image.height, content: new Uint8Array(encoded) });
  }
  parentPort.postMessage({ ok: true, width, height, sizes }, sizes.map((size) => size.content.buffer));
});
`;
