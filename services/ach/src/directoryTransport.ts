import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AchTransportError, checkFileName, type AchTransport, type InboxFile, type UploadReceipt } from './achTransport';

/** Without ACH_SFTP_URL: files go to `<root>/outbox/` (root = DATA_DIR/ach) and are read from `<root>/inbox/`. */
export function createDirectoryTransport(root: string): AchTransport {
  const outbox = path.join(root, 'outbox');
  const inbox = path.join(root, 'inbox');
  return {
    kind: 'directory',
    async upload(name: string, content: string): Promise<UploadReceipt> {
      const target = path.join(outbox, checkFileName(name));
      const bytes = Buffer.from(content, 'utf8');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await mkdir(outbox, { recursive: true });
      const existing = await readFile(target).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (existing) {
        if (existing.equals(bytes)) return { location: target, bytes: bytes.length, sha256, alreadyThere: true };
        throw new AchTransportError(`${target} already holds another file`);
      }
      const temporary = `${target}.${process.pid}.part`;
      await writeFile(temporary, bytes, { flag: 'wx' });
      await rename(temporary, target);
      return { location: target, bytes: bytes.length, sha256, alreadyThere: false };
    },
    async listInbox(): Promise<InboxFile[]> {
      const names = await readdir(inbox).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[];
        throw error;
      });
      const files: InboxFile[] = [];
      for (const name of names) {
        if (name.startsWith('.') || name.endsWith('.part')) continue;
        const info = await stat(path.join(inbox, name));
        if (info.isFile()) files.push({ name, bytes: info.size, modifiedAt: info.mtime.toISOString() });
      }
      return files.sort((a, b) => a.modifiedAt.localeCompare(b.modifiedAt) || a.name.localeCompare(b.name));
    },
    async download(name: string): Promise<string> {
      return readFile(path.join(inbox, checkFileName(name)), 'utf8');
    },
  };
}
