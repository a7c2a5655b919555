import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendCheckpointLine, checkpointFileName, readCheckpointLines, readLastCheckpointLine, repairTornTail } from './checkpointFiles';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'checkpoint-files-'));
  dirs.push(dir);
  return path.join(dir, 'checkpoints');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function lines(dir: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const line of readCheckpointLines(dir)) texts.push(line.text);
  return texts;
}

describe('the checkpoint files', () => {
  it('are appended to, and continued in the next file once one would pass its size', async () => {
    const dir = tempDir();
    expect(await lines(dir)).toEqual([]);
    expect(await readLastCheckpointLine(dir)).toBeUndefined();
    for (let i = 1; i <= 7; i += 1) await appendCheckpointLine(dir, `{"n":${i},"pad":"${'x'.repeat(60)}"}`, 100);
    expect(readdirSync(dir).sort()).toEqual([1, 2, 3, 4, 5, 6, 7].map(checkpointFileName));
    for (let i = 8; i <= 9; i += 1) await appendCheckpointLine(dir, `{"n":${i}}`, 10_000);
    expect(readdirSync(dir)).toHaveLength(7);
    expect((await lines(dir)).map((text) => (JSON.parse(text) as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await readLastCheckpointLine(dir))?.text).toBe('{"n":9}');
    await expect(appendCheckpointLine(dir, 'two\nlines', 10_000)).rejects.toThrow(/one line/);
  });

  it('leave out a record still being written, and the writer cuts one torn by a crash', async () => {
    const dir = tempDir();
    await appendCheckpointLine(dir, '{"n":1}', 10_000);
    await appendCheckpointLine(dir, '{"n":2}', 10_000);
    const file = path.join(dir, checkpointFileName(1));
    appendFileSync(file, '{"n":3,"unfini');
    expect(await lines(dir)).toEqual(['{"n":1}', '{"n":2}']);
    expect((await readLastCheckpointLine(dir))?.text).toBe('{"n":2}');
    expect(await repairTornTail(dir)).toBe('{"n":3,"unfini'.length);
    expect(await repairTornTail(dir)).toBe(0);
    await appendCheckpointLine(dir, '{"n":3}', 10_000);
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('read a long last line back whole', async () => {
    const dir = tempDir();
    const long = `{"pad":"${'y'.repeat(200_000)}"}`;
    await appendCheckpointLine(dir, '{"n":1}', 10_000_000);
    await appendCheckpointLine(dir, long, 10_000_000);
    expect((await readLastCheckpointLine(dir))?.text).toBe(long);
    expect(await lines(dir)).toEqual(['{"n":1}', long]);
  });
});
