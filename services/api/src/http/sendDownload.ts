import type { Writable } from 'node:stream';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { ClientGoneError } from '../features/statements/writeOut';

export interface Download {
  /** Made of checked parts only: quoted as is. */
  readonly fileName: string;
  readonly contentType: string;
  /** What the log says when the download is cut short, with its fields (default: `download cut short`). */
  readonly cutShort?: { readonly message: string; readonly fields: Record<string, unknown> };
}

/** The compression middleware's flush, when it is there (each chunk of a download then goes out at once). */
export function flusherOf(res: Response): () => void {
  const flush = (res as Response & { flush?: () => void }).flush;
  return typeof flush === 'function' ? () => flush.call(res) : () => {};
}

/**
 * Answers a download (an attachment) written by `write` as it goes, with backpressure; `flush` pushes each chunk
 * through the compression middleware. A failure before anything left answers with a status after all (the error
 * handler's); once the download has started it can only be cut short (the connection is destroyed, the log tells why).
 */
export async function sendDownload(
  res: Response,
  download: Download,
  write: (out: Writable, flush: () => void) => Promise<void>,
  logger?: Pick<Logger, 'warn'>,
): Promise<void> {
  res.set('Cache-Control', 'no-store');
  res.set('Content-Disposition', `attachment; filename="${download.fileName}"`);
  res.type(download.contentType);
  try {
    await write(res, flusherOf(res));
    if (!res.writableEnded) res.end();
  } catch (error) {
    if (!res.headersSent) {
      // Nothing has left yet: the error handler answers with a status after all.
      res.removeHeader('Content-Disposition');
      res.removeHeader('Content-Type');
      throw error;
    }
    if (!(error instanceof ClientGoneError)) logger?.warn({ err: error, fileName: download.fileName, ...download.cutShort?.fields }, download.cutShort?.message ?? 'download cut short');
    res.destroy(error instanceof Error ? error : undefined);
  }
}
