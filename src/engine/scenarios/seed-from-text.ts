/**
 * A faker seed derived from a text (a TIN), the same on every machine, Node version and run, so a
 * TIN always plays the same generated tree (docs/design.md "One simulated clock": same seed, scenario and
 * requests give byte-identical payloads).
 *
 * Two 32-bit FNV-1a hashes over the UTF-8 bytes, with different offset bases, feed faker's
 * Mersenne Twister as an array seed: 64 bits make two TINs sharing a whole tree very unlikely,
 * where one 32-bit hash would collide within tens of thousands of TINs.
 *
 * @example new Faker({ locale: [en, base] }).seed(seedFromText('76086428-5'))
 */
export function seedFromText(text: string): number[] {
  const bytes = Buffer.from(text, 'utf8');
  return [fnv1a(bytes, FNV_OFFSET_BASIS), fnv1a(bytes, SECOND_BASIS)];
}

const FNV_OFFSET_BASIS = 0x811c9dc5;
/** Any other basis gives a second, independent-enough hash; this one is MurmurHash2's constant. */
const SECOND_BASIS = 0x5bd1e995;

/** 32-bit FNV-1a: tiny, well known, and stable (unlike anything hashed by the runtime). */
function fnv1a(bytes: Uint8Array, offsetBasis: number): number {
  let hash = offsetBasis >>> 0;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
