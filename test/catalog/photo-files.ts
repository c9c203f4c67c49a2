// Pictures for the photo tests. Real ones are made by the same library that resizes them (one colour:
// enough for the checks, small to encode). Hostile and very large ones are written byte by byte: a
// picture of one flat grey needs no encoder (every 8x8 block is "no change, end of block", two bits, all
// zero, with one-code Huffman tables), so a 30-megapixel JPEG takes milliseconds to make.
import { crc32, createDeflate } from 'node:zlib';
import { Jimp } from 'jimp';

export async function picture(width: number, height: number, mime: 'image/jpeg' | 'image/png' = 'image/jpeg', colour = 0x2266aaff): Promise<Buffer> {
  const image = new Jimp({ width, height, color: colour });
  return mime === 'image/png' ? image.getBuffer('image/png') : image.getBuffer('image/jpeg', { quality: 90 });
}

// --- JPEG -------------------------------------------------------------------------------------------

const u16 = (value: number) => [(value >> 8) & 0xff, value & 0xff];
const segment = (marker: number, body: number[] | Buffer) => Buffer.concat([Buffer.from([0xff, marker, ...u16(body.length + 2)]), Buffer.from(body)]);

/** Quantisation table 0, all ones, and DC and AC tables 0 with one code each ('0' for symbol 0). */
const JPEG_TABLES = Buffer.concat([
  segment(0xdb, [0x00, ...new Array(64).fill(1)]),
  segment(0xc4, [0x00, 1, ...new Array(15).fill(0), 0x00]),
  segment(0xc4, [0x10, 1, ...new Array(15).fill(0), 0x00]),
]);

export type Sampling = 'grey' | '4:2:0' | '4:4:4' | 'cmyk';
const COMPONENTS: Record<Sampling, number[]> = {
  grey: [0x11],
  '4:2:0': [0x22, 0x11, 0x11],
  '4:4:4': [0x11, 0x11, 0x11],
  cmyk: [0x11, 0x11, 0x11, 0x11], // four components and no Adobe marker: decoders take it as CMYK
};

/** The frame header (baseline SOF0 or progressive SOF2). */
function frame(width: number, height: number, sampling: Sampling, progressive: boolean): Buffer {
  const components = COMPONENTS[sampling].flatMap((factors, index) => [index + 1, factors, 0]);
  return segment(progressive ? 0xc2 : 0xc0, [8, ...u16(height), ...u16(width), COMPONENTS[sampling].length, ...components]);
}

/** A scan of the given components (IDs from 1), spectral range and its entropy-coded bits (all zero). */
function scan(ids: number[], start: number, end: number, bits: number): Buffer {
  const header = segment(0xda, [ids.length, ...ids.flatMap((id) => [id, 0x00]), start, end, 0]);
  return Buffer.concat([header, Buffer.alloc(Math.ceil(bits / 8))]);
}

/** A flat grey JPEG of any size: baseline (one interleaved scan) or progressive (DC, then AC per component). */
export function flatJpeg(width: number, height: number, sampling: Sampling = '4:2:0', progressive = false): Buffer {
  const factors = COMPONENTS[sampling].map((f) => ({ h: f >> 4, v: f & 15 }));
  const maxH = Math.max(...factors.map((f) => f.h));
  const maxV = Math.max(...factors.map((f) => f.v));
  const mcus = Math.ceil(width / (8 * maxH)) * Math.ceil(height / (8 * maxV));
  const blocksPerMcu = factors.reduce((sum, f) => sum + f.h * f.v, 0);
  const scans = progressive
    ? [
        scan(
          factors.map((_, i) => i + 1),
          0,
          0,
          mcus * blocksPerMcu,
        ),
        // A non-interleaved AC scan covers each of the component's own blocks: one EOB (bit 0) each.
        ...factors.map((f, i) => scan([i + 1], 1, 63, Math.ceil((width * f.h) / maxH / 8) * Math.ceil((height * f.v) / maxV / 8))),
      ]
    : [
        scan(
          factors.map((_, i) => i + 1),
          0,
          63,
          2 * mcus * blocksPerMcu,
        ),
      ];
  return Buffer.concat([Buffer.from([0xff, 0xd8]), JPEG_TABLES, frame(width, height, sampling, progressive), ...scans, Buffer.from([0xff, 0xd9])]);
}

/** The JPEG with an EXIF orientation (6: the camera was turned, the picture is shown turned 90° clockwise). */
export function withOrientation(jpeg: Buffer, orientation: number): Buffer {
  // "Exif", then a big-endian TIFF header and one IFD with one entry: Orientation (0x0112), a SHORT.
  const tiff = [0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, ...u16(orientation), 0, 0, 0, 0, 0, 0];
  const exif = segment(0xe1, [...Buffer.from('Exif\0\0', 'latin1'), ...tiff]);
  return Buffer.concat([jpeg.subarray(0, 2), exif, jpeg.subarray(2)]);
}

/**
 * A 6000x6000 JPEG whose frame a walk over the segments does not find: an `FF 00` right after the start
 * (a decoder skips it; a walk reads the next two bytes as a length, 0xFFE1) lands the walk inside an
 * APP1 segment, on a 240x240 frame header written there, while decoders skip APP1 whole.
 */
export function hiddenFrameJpeg(): Buffer {
  const app1 = Buffer.alloc(0xffff - 2);
  const walkLandsAt = 4 + 0xffe1; // the FF 00 at 2, its "length" read at 4
  const appContentStart = 4 + 4; // FF E1, then the length
  Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, ...u16(240), ...u16(240)]).copy(app1, walkLandsAt - appContentStart);
  const real = flatJpeg(6000, 6000, 'grey');
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0x00]), segment(0xe1, app1), real.subarray(2)]);
}

// --- PNG --------------------------------------------------------------------------------------------

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An IHDR of 8-bit grey, interlaced or not. */
function header(width: number, height: number, interlaced = false): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8; // bits per sample
  data[12] = interlaced ? 1 : 0;
  return chunk('IHDR', data);
}

const SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

/** Deflates `size` zero bytes without holding them: a 1 MiB block written again and again. */
async function deflatedZeros(size: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const block = Buffer.alloc(1024 * 1024);
  for (let left = size; left > 0; left -= block.length) {
    if (!deflate.write(left >= block.length ? block : block.subarray(0, left))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(parts);
}

/** A PNG whose first IHDR says 240x240 and whose second, the one decoders use, 6000x6000 (grey, zero rows). */
export async function twoHeaderPng(): Promise<Buffer> {
  const rows = (6000 + 1) * 6000; // each row: its filter byte, then one byte a pixel
  return Buffer.concat([SIGNATURE, header(240, 240), header(6000, 6000), chunk('IDAT', await deflatedZeros(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** An interlaced 2000x2000 PNG (4 MB of image data) whose data inflates to `inflated` bytes. */
export async function inflationBombPng(inflated: number): Promise<Buffer> {
  return Buffer.concat([SIGNATURE, header(2000, 2000, true), chunk('IDAT', await deflatedZeros(inflated)), chunk('IEND', Buffer.alloc(0))]);
}
