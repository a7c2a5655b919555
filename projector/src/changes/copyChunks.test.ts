import { describe, expect, it } from 'vitest';
import { CopyChunks } from './copyChunks';

describe('CopyChunks', () => {
  it('gives the UTF-8 of every line in order, over many chunks and with multi-byte text', () => {
    const chunks = new CopyChunks();
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      const line = `${i}\tÉlodie Ångström ☕ ${'x'.repeat(i % 50)}\t\\N\n`;
      lines.push(line);
      chunks.add(line);
    }
    const out = chunks.finish();
    expect(out.length).toBeGreaterThan(1);
    expect(out.every((chunk) => chunk.length <= 256 * 1024)).toBe(true);
    expect(Buffer.concat(out).equals(Buffer.from(lines.join(''), 'utf8'))).toBe(true);
  });

  it('keeps a line longer than a chunk whole', () => {
    const chunks = new CopyChunks();
    const long = `${'€'.repeat(200_000)}\n`;
    chunks.add('a\n');
    chunks.add(long);
    chunks.add('b\n');
    expect(Buffer.concat(chunks.finish()).toString('utf8')).toBe(`a\n${long}b\n`);
  });

  it('gives nothing for no lines', () => {
    expect(new CopyChunks().finish()).toEqual([]);
  });
});
