import type { Writable } from 'node:stream';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { flusherOf } from '../statements/sendStatement';
import { ClientGoneError } from '../statements/writeOut';

export interface Download {
  /** Made of checked parts only: quoted as is. */
  readonly fileName: string;
  readonly contentType: string;
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
      res.removeHeader('Content-Disposition');
      res.removeHeader('Content-Type');
      throw error;
    }
    if (!(error instanceof ClientGoneError)) logger?.warn({ err: error, fileName: download.fileName }, 'ledger download cut short');
    res.destroy(error instanceof Error ? error : undefined);
  }
}
