import type { Writable } from 'node:stream';

/** The client went away while a download was being written: stop reading the log. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
  constructor() {
    super('The client closed the connection');
  }
}

/** Resolves when `out` can take more (its buffer drained), rejects with ClientGoneError when it closes first. */
export function drained(out: Writable): Promise<void> {
  if (out.destroyed || out.writableEnded) return Promise.reject(new ClientGoneError());
  if (!out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      out.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      out.off('drain', onDrain);
      reject(new ClientGoneError());
    };
    out.once('drain', onDrain);
    out.once('close', onClose);
  });
}

/** Writes with backpressure: waits for `out` to drain when its buffer is full, so memory stays bounded. */
export async function writeOut(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.destroyed) throw new ClientGoneError();
  if (!out.write(chunk)) await drained(out);
}
