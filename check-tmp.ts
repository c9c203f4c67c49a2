import { flatJpeg, hiddenFrameJpeg, twoHeaderPng, inflationBombPng } from './test/catalog/photo-files.js';
import { writeFileSync } from 'node:fs';
import jpeg from 'jpeg-js';
const t = Date.now();
const files = { flat420: flatJpeg(4000, 3000), flatProg: flatJpeg(4000, 3000, '4:2:0', true), prog444: flatJpeg(6000, 5000, '4:4:4', true), hidden: hiddenFrameJpeg(), two: await twoHeaderPng(), bomb: await inflationBombPng(300 * 1024 * 1024) };
for (const [name, b] of Object.entries(files)) { writeFileSync(`/tmp/ph/${name}.${name === 'two' || name === 'bomb' ? 'png' : 'jpg'}`, b); console.log(name, b.length); }
console.log('ms', Date.now() - t);
const small = flatJpeg(400, 300, '4:2:0', true);
const d = jpeg.decode(small); console.log('jpeg-js decodes progressive flat', d.width, d.height, d.data[0], d.data[1], d.data[2]);
