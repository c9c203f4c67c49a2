// The demo activities' photos: the demo ships no pictures of real places (nobody's rights to clear, nothing
// to download), so each activity gets an illustration drawn here, a sky over water or land with a sun, in
// its own colours. They go through the same upload path as an operator's photos (bytes checked, resized
// once, stored, served at /photos/...), so the booking pages, the partner API and OCTo show them as
// they would a real one.
import type { Db } from '../db/connection.js';
import { addPhoto } from '../catalog/photos/service.js';

export interface Scene {
  /** Top and bottom of the sky, the ground (or water) at the horizon and at the bottom, the sun: 0xRRGGBB. */
  sky: [number, number];
  ground: [number, number];
  sun: number;
  /** What the picture shows, for those who cannot see it. */
  alt: string;
}

// 960 wide: the booking pages' two smaller sizes (PHOTO_WIDTHS), and half the work of a larger one.
const WIDTH = 960;
const HEIGHT = 640;
const HORIZON = 0.62;

const channel = (color: number, shift: number) => (color >> shift) & 0xff;
const mix = (a: number, b: number, t: number) =>
  [16, 8, 0].map((shift) => Math.round(channel(a, shift) + (channel(b, shift) - channel(a, shift)) * t));

/** A PNG of the scene: two gradients split at the horizon and a sun disc half-way up the sky. */
export async function drawScene(scene: Scene): Promise<Buffer> {
  // Loaded here, not with the module: a server that seeds no demo (every start but the first) never holds
  // jimp in memory (the resizer loads it in its worker thread only).
  const { Jimp } = await import('jimp');
  const image = new Jimp({ width: WIDTH, height: HEIGHT, color: 0x000000ff });
  const data = image.bitmap.data;
  const horizon = Math.round(HEIGHT * HORIZON);
  const sun = { x: WIDTH * 0.7, y: horizon * 0.55, r: HEIGHT * 0.09 };
  for (let y = 0; y < HEIGHT; y += 1) {
    const row =
      y < horizon ? mix(scene.sky[0], scene.sky[1], y / horizon) : mix(scene.ground[0], scene.ground[1], (y - horizon) / (HEIGHT - horizon));
    for (let x = 0; x < WIDTH; x += 1) {
      const inSun = y < horizon && (x - sun.x) ** 2 + (y - sun.y) ** 2 <= sun.r ** 2;
      const [r, g, b] = inSun ? mix(scene.sun, scene.sun, 0) : row;
      const at = (y * WIDTH + x) * 4;
      data[at] = r!;
      data[at + 1] = g!;
      data[at + 2] = b!;
      data[at + 3] = 0xff;
    }
  }
  return image.getBuffer('image/png');
}

/** Gives each demo activity its illustration (in the order of `activityIds`; a missing scene gives none). */
export async function addDemoPhotos(db: Db, operatorId: number, activityIds: string[], scenes: (Scene | undefined)[]): Promise<void> {
  for (const [index, activityId] of activityIds.entries()) {
    const scene = scenes[index];
    if (!scene) continue;
    await addPhoto(db, operatorId, activityId, await drawScene(scene), scene.alt, '');
  }
}
