/**
 * A seeded pseudo-random source (sfc32): the only randomness of the engine, so
 * the same seed and the same calls give the same ids and the same payloads.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  int(max: number): number;
  /** Where the source stands: {@link createRandom} given it goes on with the same draws (a world's snapshot). */
  state(): RandomState;
}

/** The four 32-bit words of sfc32's state. */
export type RandomState = [number, number, number, number];

/** Creates a {@link Random} from a numeric seed, or from the `state` another one stood at (then `seed` is unused). */
export function createRandom(seed: number, state?: RandomState): Random {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 ^ Math.imul(seed, 0x85ebca6b);
  let c = 0xb7e15162 ^ Math.imul(seed, 0xc2b2ae35);
  let d = 1;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm up so that close seeds do not start with close values.
  if (state === undefined) for (let i = 0; i < 12; i += 1) next();
  else [a, b, c, d] = state;
  return { next, int: (max) => Math.floor(next() * max), state: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0] };
}
