/** The largest part of a position kept as a number: below it, every whole number is exact in a double. */
const MAX_PART = Number.MAX_SAFE_INTEGER;

/**
 * A part of a position written as the event store writes it (20 digits, `formatPosition`), from `start`, as a
 * number; -1 when it is not 20 digits or too large to be exact.
 */
function part(text: string, start: number): number {
  let value = 0;
  for (let i = start; i < start + 20; i += 1) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9 || value > (MAX_PART - d) / 10) return -1;
    value = value * 10 + d;
  }
  return value;
}

const text = (commit: number, prepare: number) => `${String(commit).padStart(20, '0')}:${String(prepare).padStart(20, '0')}`;

/**
 * The position of each row of a held table (HeldTable), one slot per row: `<commit>:<prepare>` kept as two numbers
 * (no string per row for the collector, none made per update), or as its text when it is not in that form.
 * Compared as the text compares (for the event store's form, as the numbers compare).
 */
export class HeldPositions {
  private commits: Float64Array;
  private prepares: Float64Array;
  /** Slots whose position is kept as text. */
  private readonly texts = new Map<number, string>();

  constructor(capacity: number) {
    this.commits = new Float64Array(capacity);
    this.prepares = new Float64Array(capacity);
  }

  grow(capacity: number): void {
    const commits = new Float64Array(capacity);
    commits.set(this.commits);
    this.commits = commits;
    const prepares = new Float64Array(capacity);
    prepares.set(this.prepares);
    this.prepares = prepares;
  }

  set(slot: number, position: string): void {
    const commit = position.length === 41 && position.charCodeAt(20) === 58 /* : */ ? part(position, 0) : -1;
    this.store(slot, position, commit, commit < 0 ? -1 : part(position, 21));
  }

  get(slot: number): string {
    return this.texts.get(slot) ?? text(this.commits[slot]!, this.prepares[slot]!);
  }

  /** Moves the slot to `position` when it is after the slot's (true), else leaves it (false). Reads the text once. */
  advance(slot: number, position: string): boolean {
    const commit = position.length === 41 && position.charCodeAt(20) === 58 /* : */ ? part(position, 0) : -1;
    const prepare = commit < 0 ? -1 : part(position, 21);
    let after: boolean;
    if (prepare < 0 || (this.texts.size > 0 && this.texts.has(slot))) after = position > this.get(slot);
    else {
      const held = this.commits[slot]!;
      after = commit > held || (commit === held && prepare > this.prepares[slot]!);
    }
    if (after) this.store(slot, position, commit, prepare);
    return after;
  }

  /** `prepare` < 0: the position is not in the event store's form (or too large), and is kept as text. */
  private store(slot: number, position: string, commit: number, prepare: number): void {
    if (prepare < 0) {
      this.texts.set(slot, position);
      return;
    }
    if (this.texts.size > 0) this.texts.delete(slot);
    this.commits[slot] = commit;
    this.prepares[slot] = prepare;
  }
}
