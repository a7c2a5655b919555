import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, stat, truncate, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The checkpoint files: `<dir>/checkpoints-000001.jsonl`, `-000002`, … one signed record per line
 * (checkpointRecord.ts), only ever appended to. When the newest file would grow past its limit, the next record
 * starts the next file; the records go on counting across files, so the files together are one chain (keep them
 * all: they are small, and each is the evidence for its period). Each append is flushed to disk (fdatasync) before
 * the writer moves on.
 */
const FILE_NAME = /^checkpoints-(\d{6,})\.jsonl$/;

export function checkpointFileName(number: number): string {
  return `checkpoints-${String(number).padStart(6, '0')}.jsonl`;
}

interface CheckpointFile {
  readonly number: number;
  readonly path: string;
}

async function listFiles(dir: string): Promise<CheckpointFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => ({ match: FILE_NAME.exec(name), name }))
    .filter((entry): entry is { match: RegExpExecArray; name: string } => entry.match !== null)
    .map((entry) => ({ number: Number(entry.match[1]), path: path.join(dir, entry.name) }))
    .sort((a, b) => a.number - b.number);
}

/** The checkpoint files of `dir`, oldest first ([] when the directory does not exist). */
export async function listCheckpointFiles(dir: string): Promise<string[]> {
  return (await listFiles(dir)).map((file) => file.path);
}

export interface CheckpointLine {
  readonly file: string;
  /** 1-based line number in the file. */
  readonly line: number;
  readonly text: string;
}

async function endsWithNewline(file: string, size: number): Promise<boolean> {
  if (size === 0) return true;
  const handle = await open(file, 'r');
  try {
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, size - 1);
    return byte[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

/**
 * Every line of every checkpoint file, oldest first. The newest file's last line is left out when it has no newline
 * yet: a record being written at this moment (or torn by a crash, which the writer repairs).
 */
export async function* readCheckpointLines(dir: string): AsyncGenerator<CheckpointLine> {
  const files = await listFiles(dir);
  for (const [index, file] of files.entries()) {
    const { size } = await stat(file.path);
    if (size === 0) continue;
    const dropLast = index === files.length - 1 && !(await endsWithNewline(file.path, size));
    // Up to the size seen now: a record appended while this runs belongs to the next reading.
    const lines = createInterface({ input: createReadStream(file.path, { encoding: 'utf8', end: size - 1 }), crlfDelay: Infinity });
    let pending: CheckpointLine | undefined;
    let number = 0;
    for await (const text of lines) {
      number += 1;
      if (pending && pending.text !== '') yield pending;
      pending = { file: file.path, line: number, text };
    }
    if (pending && pending.text !== '' && !dropLast) yield pending;
  }
}

const CHUNK = 64 * 1024;

/** The offset of the last newline at or before `before` (exclusive end), or -1. */
async function lastNewline(handle: FileHandle, before: number): Promise<number> {
  for (let end = before; end > 0; ) {
    const start = Math.max(0, end - CHUNK);
    const chunk = Buffer.alloc(end - start);
    await handle.read(chunk, 0, chunk.length, start);
    const newline = chunk.lastIndexOf(0x0a);
    if (newline >= 0) return start + newline;
    end = start;
  }
  return -1;
}

/** The last complete (newline-terminated) line of a file, or undefined when it has none. */
async function lastLineOf(file: string, size: number): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const lineEnd = await lastNewline(handle, size);
    if (lineEnd < 0) return undefined;
    const lineStart = (await lastNewline(handle, lineEnd)) + 1;
    const text = Buffer.alloc(lineEnd - lineStart);
    await handle.read(text, 0, text.length, lineStart);
    return text.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The newest complete line of the checkpoint files, with where it is; undefined when there is none. */
export async function readLastCheckpointLine(dir: string): Promise<CheckpointLine | undefined> {
  const files = await listFiles(dir);
  for (const file of files.reverse()) {
    const { size } = await stat(file.path);
    const text = size === 0 ? undefined : await lastLineOf(file.path, size);
    if (text !== undefined && text !== '') return { file: file.path, line: 0, text };
  }
  return undefined;
}

/**
 * Cuts an unfinished last line off the newest file (a write torn by a crash: never a record, its signature could not
 * have matched) so that the next record starts on a line of its own. Returns the bytes removed.
 */
export async function repairTornTail(dir: string): Promise<number> {
  const newest = (await listFiles(dir)).at(-1);
  if (!newest) return 0;
  const { size } = await stat(newest.path);
  if (await endsWithNewline(newest.path, size)) return 0;
  const handle = await open(newest.path, 'r');
  let keep: number;
  try {
    keep = (await lastNewline(handle, size)) + 1;
  } finally {
    await handle.close();
  }
  await truncate(newest.path, keep);
  return size - keep;
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Not every file system lets a directory be synced.
  } finally {
    await handle.close();
  }
}

/**
 * Appends one line to the newest checkpoint file, or starts the next file when it would grow past `maxFileBytes`;
 * returns the file written. The directory is created (0700) when missing.
 */
export async function appendCheckpointLine(dir: string, line: string, maxFileBytes: number): Promise<string> {
  if (line.includes('\n')) throw new Error('a checkpoint record is one line');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const files = await listFiles(dir);
  const newest = files.at(-1);
  const bytes = Buffer.from(`${line}\n`, 'utf8');
  let target = newest ?? { number: 1, path: path.join(dir, checkpointFileName(1)) };
  if (newest) {
    const { size } = await stat(newest.path);
    if (size > 0 && size + bytes.length > maxFileBytes) target = { number: newest.number + 1, path: path.join(dir, checkpointFileName(newest.number + 1)) };
  }
  const created = target !== newest;
  const handle = await open(target.path, 'a', 0o640);
  try {
    await handle.write(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  if (created) await syncDirectory(dir);
  return target.path;
}
