import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { chromiumUnavailable } from '../support/chromium';

// The script that makes the README's screenshots (docs/dashboard-*.png) keeps working: run here into a
// temporary folder, so tests never rewrite docs/. What a reader of the README needs of them: every image it
// shows, each a whole page at the size of the one in docs/, each a different view, none blank.

const ROOT = join(__dirname, '..', '..');
const unavailable = chromiumUnavailable();
const testInBrowser = unavailable === null ? test : test.skip;
if (unavailable !== null) process.stderr.write(`dashboard screenshot test skipped: ${unavailable}\n`);

/** Width, height and the number of distinct colours of an 8-bit RGB or RGBA PNG (what Chromium writes). */
function readPng(data: Buffer): { width: number; height: number; colours: number } {
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') chunks.push(body);
    at += 12 + length;
  }
  const width = header!.readUInt32BE(0);
  const height = header!.readUInt32BE(4);
  expect([header![8], header![12]]).toEqual([8, 0]); // 8 bits per channel, not interlaced
  const bpp = { 2: 3, 6: 4 }[header![9] as 2 | 6];
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * bpp;
  const pixels = Buffer.alloc(stride * height);
  // Undo each row's filter (PNG spec §9): None, Sub, Up, Average, Paeth.
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= bpp ? pixels[y * stride + x - bpp]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= bpp && y > 0 ? pixels[(y - 1) * stride + x - bpp]! : 0;
      const p = left + up - upLeft;
      const paeth =
        Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft) ? left : Math.abs(p - up) <= Math.abs(p - upLeft) ? up : upLeft;
      const predicted = [0, left, up, (left + up) >> 1, paeth][filter]!;
      pixels[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  const colours = new Set<number>();
  for (let at = 0; at < pixels.length; at += bpp) colours.add(pixels.readUIntBE(at, 3));
  return { width, height, colours: colours.size };
}

testInBrowser(
  'scripts/dashboard-screenshots.js writes every screenshot the README shows: whole pages of distinct views at the size of docs/',
  async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const shown = [...new Set([...readme.matchAll(/\(docs\/(dashboard-[a-z-]+\.png)\)/g)].map(([, file]) => file!))].sort();
    expect(shown).toEqual(readdirSync(join(ROOT, 'docs')).filter((file) => /^dashboard-.*\.png$/.test(file)));
    const out = mkdtempSync(join(tmpdir(), 'bvs-mock-shots-'));
    try {
      await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'dashboard-screenshots.js'), out], { timeout: 90_000 });
      expect(readdirSync(out).sort()).toEqual(shown);
      const hashes = new Set<string>();
      for (const file of shown) {
        const made = readFileSync(join(out, file));
        const image = readPng(made);
        const committed = readPng(readFileSync(join(ROOT, 'docs', file)));
        expect({ file, width: image.width, height: image.height }).toEqual({ file, width: committed.width, height: committed.height });
        expect({ file, width: image.width, height: image.height }).toEqual({ file, width: 1440, height: 900 });
        // A rendered page has text, anti-aliased: hundreds of colours; a blank or error-free white page has a handful.
        expect({ file, colours: image.colours > 100 }).toEqual({ file, colours: true });
        hashes.add(createHash('sha256').update(made).digest('hex'));
      }
      expect(hashes.size).toBe(shown.length);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
  240_000,
);
