/** How NACHA files leave the bank and come back: the ODFI's SFTP server, or a local folder. */

export interface UploadReceipt {
  /** Where the file is now: `sftp://host:port/path/name` or a local path. */
  readonly location: string;
  readonly bytes: number;
  readonly sha256: string;
  /** True when the same file (same bytes) was already there: an upload repeated after a crash. */
  readonly alreadyThere: boolean;
}

export interface InboxFile {
  readonly name: string;
  readonly bytes: number;
  readonly modifiedAt: string;
}

export interface AchTransport {
  readonly kind: 'sftp' | 'directory';
  /**
   * Puts a file in the outbox under `name`, whole or not at all (written under a temporary name, then renamed).
   * The same bytes again are accepted (`alreadyThere`); other bytes under a name already taken are refused.
   */
  upload(name: string, content: string): Promise<UploadReceipt>;
  /** The files waiting in the inbox (returns, incoming credits), oldest first. */
  listInbox(): Promise<InboxFile[]>;
  /** One inbox file's text. */
  download(name: string): Promise<string>;
}

export class AchTransportError extends Error {
  override readonly name = 'AchTransportError';
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A file name the outbox and inbox accept: letters, digits, . _ - (no folders, no leading dot). */
export function checkFileName(name: string): string {
  if (!FILE_NAME.test(name) || name.includes('..') || name.endsWith('.part')) {
    throw new AchTransportError(`Not an ACH file name: ${JSON.stringify(name)} (letters, digits, . _ -; no folders)`);
  }
  return name;
}
