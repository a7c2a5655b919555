/** Bytes of one chunk of COPY data. */
const CHUNK_BYTES = 256 * 1024;

/**
 * COPY's text data, gathered line by line into UTF-8 chunks of about 256 kB. Each line is encoded as soon as it is
 * added: one rope of thousands of lines, flattened and encoded at the end, cost the rebuild 2.5 times as much (the
 * flattening walks every piece of it).
 */
export class CopyChunks {
  private readonly done: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

  /** Adds one line (its fields and the newline). */
  add(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (this.chunk.length - this.used < line.length * 3) {
      if (this.used > 0) this.done.push(this.chunk.subarray(0, this.used));
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, line.length * 3));
      this.used = 0;
    }
    this.used += this.chunk.write(line, this.used, 'utf8');
  }

  /** The chunks, the last one cut to what it holds. */
  finish(): Buffer[] {
    if (this.used > 0) this.done.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.alloc(0);
    this.used = 0;
    return this.done;
  }
}
