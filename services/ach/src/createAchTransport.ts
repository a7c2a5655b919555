import path from 'node:path';
import type { Logger } from '@bank/platform';
import type { AchSettings } from './achSettings';
import type { AchTransport } from './achTransport';
import { createDirectoryTransport } from './directoryTransport';
import { createSftpTransport, readPrivateKey } from './sftpTransport';

/** The transport the settings name: the ODFI's SFTP server with ACH_SFTP_URL, else DATA_DIR/ach/{outbox,inbox}. */
export function createAchTransport(settings: AchSettings, dataDir: string, logger?: Logger): AchTransport {
  const url = settings.ACH_SFTP_URL;
  if (!url) return createDirectoryTransport(path.join(dataDir, 'ach'));
  return createSftpTransport({
    ...url,
    privateKey: readPrivateKey(settings.ACH_SFTP_KEY_FILE!),
    hostKeySha256: settings.ACH_SFTP_HOST_KEY_SHA256,
    outbox: settings.ACH_SFTP_OUTBOX,
    inbox: settings.ACH_SFTP_INBOX,
    timeoutMs: settings.ACH_SFTP_TIMEOUT_MS,
    logger,
  });
}
