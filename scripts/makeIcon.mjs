// Draws media/council.png (128x128): three seats around a round table, written with zlib only
// so the icon can be regenerated offline. Run: node scripts/makeIcon.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const SUPERSAMPLE = 4; // 4x4 samples per pixel smooth the circle edges
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Shapes, last one wins; each is [inside(x, y), [r, g, b]] in 0..128 space. */
const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ring = (cx, cy, outer, inner) => (x, y) => circle(cx, cy, outer)(x, y) && !circle(cx, cy, inner)(x, y);
const roundedSquare = (margin, radius) => (x, y) => {
  const lo = margin + radius;
  const hi = SIZE - margin - radius;
  const nx = Math.min(Math.max(x, lo), hi);
  const ny = Math.min(Math.max(y, lo), hi);
  return (
    (x - nx) ** 2 + (y - ny) ** 2 <= radius * radius &&
    x >= margin &&
    y >= margin &&
    x <= SIZE - margin &&
    y <= SIZE - margin
  );
};

const seat = angle => [Math.round(64 + 38 * Math.cos(angle)), Math.round(64 + 38 * Math.sin(angle))];
const seats = [-Math.PI / 2, Math.PI / 6, (5 * Math.PI) / 6].map(seat);
const seatColors = [
  [255, 193, 7],
  [38, 198, 218],
  [255, 112, 67],
];

const shapes = [
  [roundedSquare(4, 24), [40, 53, 147]],
  [ring(64, 64, 22, 15), [236, 239, 255]],
  [circle(64, 64, 6), [236, 239, 255]],
  ...seats.map(([x, y], i) => [circle(x, y, 13), seatColors[i]]),
];

function pixel(px, py) {
  let r = 0,
    g = 0,
    b = 0,
    a = 0;
  for (let sy = 0; sy < SUPERSAMPLE; sy++) {
    for (let sx = 0; sx < SUPERSAMPLE; sx++) {
      const x = px + (sx + 0.5) / SUPERSAMPLE;
      const y = py + (sy + 0.5) / SUPERSAMPLE;
      const hit = shapes.findLast(([inside]) => inside(x, y));
      if (!hit) continue;
      r += hit[1][0];
      g += hit[1][1];
      b += hit[1][2];
      a += 255;
    }
  }
  const samples = SUPERSAMPLE * SUPERSAMPLE;
  const covered = a / 255;
  return covered === 0 ? [0, 0, 0, 0] : [r / covered, g / covered, b / covered, a / samples].map(Math.round);
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // PNG filter type "none" for each scanline
  for (let x = 0; x < SIZE; x++) raw.set(pixel(x, y), y * (SIZE * 4 + 1) + 1 + x * 4);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = bytes => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
};

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // colour type RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const target = join(root, 'media', 'council.png');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, png);
console.log(`wrote ${target} (${png.length} bytes)`);
