import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@bank/platform';
import SftpClient from 'ssh2-sftp-client';
import { AchTransportError, checkFileName, type AchTransport, type InboxFile, type UploadReceipt } from './achTransport';

export interface SftpTransportOptions {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  /** The remote base directory ('' = the login directory). */
  readonly path: string;
  readonly privateKey: string | Buffer;
  /** `SHA256:…` as ssh-keygen -l prints it; unset = any host key (development only). */
  readonly hostKeySha256?: string | undefined;
  readonly outbox: string;
  readonly inbox: string;
  readonly timeoutMs: number;
  readonly logger?: Logger | undefined;
}

/** The fingerprint ssh-keygen -l prints for a raw public key blob: "SHA256:" + unpadded base64 of its SHA-256. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** Reads the key file once (ACH_SFTP_KEY_FILE), with a clear error when it cannot be read. */
export function readPrivateKey(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new AchTransportError(`ACH_SFTP_KEY_FILE ${file} cannot be read: ${(error as Error).message}`);
  }
}

/**
 * The ODFI's SFTP server (ACH_SFTP_URL, key authentication, the host key pinned by ACH_SFTP_HOST_KEY_SHA256).
 * One connection per operation: files are few and large, and no connection is left half-open between cut-offs.
 */
export function createSftpTransport(options: SftpTransportOptions): AchTransport {
  const where = `sftp://${options.username}@${options.host}:${options.port}`;
  const directory = (folder: string) => path.posix.join(options.path === '' ? '.' : options.path, folder);
  const outbox = directory(options.outbox);
  const inbox = directory(options.inbox);

  async function withSftp<T>(action: string, work: (sftp: SftpClient) => Promise<T>): Promise<T> {
    const sftp = new SftpClient('bank-ach');
    let hostKeyRefused: string | undefined;
    try {
      await sftp.connect({
        host: options.host,
        port: options.port,
        username: options.username,
        privateKey: options.privateKey,
        readyTimeout: options.timeoutMs,
        retries: 0,
        ...(options.hostKeySha256
          ? {
              hostVerifier: (key: Buffer) => {
                const fingerprint = hostKeyFingerprint(key);
                if (fingerprint !== options.hostKeySha256) hostKeyRefused = fingerprint;
                return fingerprint === options.hostKeySha256;
              },
            }
          : {}),
      });
    } catch (error) {
      if (hostKeyRefused) throw new AchTransportError(`${where} answered with host key ${hostKeyRefused}, not ACH_SFTP_HOST_KEY_SHA256 ${options.hostKeySha256}: refused`);
      throw new AchTransportError(`${action}: cannot connect to ${where}: ${(error as Error).message}`);
    }
    try {
      return await work(sftp);
    } catch (error) {
      if (error instanceof AchTransportError) throw error;
      throw new AchTransportError(`${action} on ${where}: ${(error as Error).message}`);
    } finally {
      await sftp.end().catch(() => undefined);
    }
  }

  return {
    kind: 'sftp',
    async upload(name: string, content: string): Promise<UploadReceipt> {
      const target = path.posix.join(outbox, checkFileName(name));
      const bytes = Buffer.from(content, 'utf8');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const location = target.startsWith('/') ? `${where}${target}` : `${where}/~/${target.replace(/^\.\//, '')}`;
      return withSftp(`Upload of ${name}`, async (sftp) => {
        if ((await sftp.exists(outbox)) !== 'd') await sftp.mkdir(outbox, true);
        const present = await sftp.exists(target);
        if (present) {
          const existing = present === '-' ? ((await sftp.get(target)) as Buffer) : undefined;
          if (existing?.equals(bytes)) return { location, bytes: bytes.length, sha256, alreadyThere: true };
          throw new AchTransportError(`${location} already holds another file`);
        }
        const temporary = `${target}.${process.pid}.part`;
        await sftp.put(bytes, temporary);
        await sftp.rename(temporary, target);
        const written = await sftp.stat(target);
        if (written.size !== bytes.length) throw new AchTransportError(`${location} holds ${written.size} bytes after the upload, not ${bytes.length}`);
        options.logger?.info({ location, bytes: bytes.length, sha256 }, 'ACH file uploaded');
        return { location, bytes: bytes.length, sha256, alreadyThere: false };
      });
    },
    async listInbox(): Promise<InboxFile[]> {
      return withSftp('Listing the inbox', async (sftp) => {
        if ((await sftp.exists(inbox)) !== 'd') return [];
        const entries = await sftp.list(inbox);
        return entries
          .filter((entry) => entry.type === '-' && !entry.name.startsWith('.') && !entry.name.endsWith('.part'))
          .map((entry) => ({ name: entry.name, bytes: entry.size, modifiedAt: new Date(entry.modifyTime).toISOString() }))
          .sort((a, b) => a.modifiedAt.localeCompare(b.modifiedAt) || a.name.localeCompare(b.name));
      });
    },
    async download(name: string): Promise<string> {
      const source = path.posix.join(inbox, checkFileName(name));
      return withSftp(`Download of ${name}`, async (sftp) => ((await sftp.get(source)) as Buffer).toString('utf8'));
    },
  };
}
