import type { IdPrefix } from '../schemas';
import { createRandom, type Random } from './random';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Makes ids as the service writes them: a type prefix, an underscore and an
 * opaque suffix (spec §2). The suffix is ULID-like: 10 characters of the
 * simulated time, then 16 from a seeded random source, so ids sort by creation
 * and the same seed and calls give the same ids (DESIGN.md, "One simulated clock").
 */
export class IdSource {
  private random: Random;

  /**
   * @param seed the seed; `reset()` starts over from it
   * @param now the simulated time in epoch milliseconds
   */
  constructor(
    private readonly seed: number,
    private readonly now: () => number,
  ) {
    this.random = createRandom(seed);
  }

  /** The next id with the given prefix, like `evl_01KF3Q9Z7X4M2N8P5R6T1V0W3Y`. */
  next(prefix: IdPrefix): string {
    let time = Math.max(0, Math.floor(this.now()));
    let timePart = '';
    for (let i = 0; i < 10; i += 1) {
      timePart = ALPHABET[time % 32]! + timePart;
      time = Math.floor(time / 32);
    }
    let randomPart = '';
    for (let i = 0; i < 16; i += 1) randomPart += ALPHABET[this.random.int(32)]!;
    return `${prefix}_${timePart}${randomPart}`;
  }

  /** Starts the sequence over from the seed. */
  reset(): void {
    this.random = createRandom(this.seed);
  }
}
