import { useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/api/apiError';
import { fetchDownload, saveBlob } from '../../lib/api/downloadFile';
import { achFileName } from './achFormat';
import type { AchFileSummary } from './achTypes';

/**
 * GET /admin/ach/files/:id/download: the NACHA text as the bank stored it, fetched with the session's token (a link
 * cannot carry it), then saved under the server's file name.
 */
export function DownloadAchFile({ file, variant = 'link' }: { file: Pick<AchFileSummary, 'id' | 'effectiveDate'>; variant?: 'link' | 'secondary' }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const saved = await fetchDownload(`/admin/ach/files/${encodeURIComponent(file.id)}/download`, {}, achFileName(file));
      saveBlob(saved.blob, saved.fileName);
    } catch (caught) {
      setError(errorMessage(caught, 'The file could not be downloaded'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="ach-download">
      <Button variant={variant} loading={busy} onClick={() => void download()}>
        Download<span className="visually-hidden"> the file effective {file.effectiveDate}</span>
      </Button>
      {error ? <Alert kind="error">{error}</Alert> : null}
    </span>
  );
}
