import type { IdPrefix } from '../schemas';
import { createRandom, type Random, type RandomState } from './random';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ALPHABET_CODES = Array.from(ALPHABET, (char) => char.charCodeAt(0));

/**
 * Makes ids as the service writes them: a type prefix, an underscore and an
 * opaque suffix (spec §2). The suffix is ULID-like: 10 characters of the
 * simulated time, then 16 from a seeded random source, so ids sort by creation
 * and the same seed and calls give the same ids (docs/design.md, "One simulated clock").
 */
export class IdSource {
  private random: Random;
  private readonly codes: number[] = new Array<number>(26).fill(0);

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
    // Character codes into one reused buffer, one string at the end: ids are made on every hot path.
    const codes = this.codes;
    let time = Math.max(0, Math.floor(this.now()));
    for (let i = 9; i >= 0; i -= 1) {
      codes[i] = ALPHABET_CODES[time % 32]!;
      time = Math.floor(time / 32);
    }
    for (let i = 10; i < 26; i += 1) codes[i] = ALPHABET_CODES[this.random.int(32)]!;
    return `${prefix}_${String.fromCharCode(...codes)}`;
  }

  /** Where the random part of the ids stands (a world's snapshot). */
  position(): RandomState {
    return this.random.state();
  }

  /** Goes on from a position {@link position} gave (a world restored from a snapshot). */
  restorePosition(state: RandomState): void {
    this.random = createRandom(this.seed, state);
  }

  /** Starts the sequence over from the seed. */
  reset(): void {
    this.random = createRandom(this.seed);
  }
}
