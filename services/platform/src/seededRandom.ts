/**
 * mulberry32: a small, fast, well-mixed 32-bit generator of numbers in [0, 1) from a seed, the same sequence for the
 * same seed everywhere. For generated banks, examples and tests that must be reproducible; never for secrets.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
