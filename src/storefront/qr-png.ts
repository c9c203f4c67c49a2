// A booking's check-in QR code as a PNG, for e-mails: mail clients show PNG images but rarely SVG (the
// manage page's qr.svg). The code encodes the booking reference, as at the door (docs/checkin.md); uqr
// makes the matrix, and this writes it as a greyscale PNG: signature, IHDR, one zlib-compressed IDAT, IEND.
import { crc32, deflateSync } from 'node:zlib';
import { encode } from 'uqr';

const QUIET_ZONE = 4; // modules of white around the code, as scanners expect
const SCALE = 6; // pixels per module

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function qrPng(text: string): Buffer {
  const { data, size } = encode(text);
  const side = (size + 2 * QUIET_ZONE) * SCALE;
  // Each row: filter byte 0, then one byte per pixel (0 black, 255 white).
  const raw = Buffer.alloc(side * (side + 1), 255);
  for (let y = 0; y < side; y++) {
    raw[y * (side + 1)] = 0;
    const row = Math.floor(y / SCALE) - QUIET_ZONE;
    for (let x = 0; x < side; x++) {
      const column = Math.floor(x / SCALE) - QUIET_ZONE;
      if (data[row]?.[column]) raw[y * (side + 1) + 1 + x] = 0;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
