import { useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/api/apiError';
import { fetchDownload, saveBlob } from '../../lib/api/downloadFile';
import { statementPath, type StatementRequest } from './statementTypes';

type Format = 'csv' | 'pdf';

/**
 * "Download CSV" and "Download PDF" of a statement (`what` names it where other downloads share the page:
 * "Download statement CSV"): fetched with the session's token, then saved.
 */
export function StatementDownloads({ request, userId, what }: { request: StatementRequest | undefined; userId?: string; what?: string }) {
  const label = (format: string) => `Download ${what ? `${what} ` : ''}${format}`;
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (format: Format) => {
    if (!request) return;
    setBusy(format);
    setError(null);
    try {
      const { blob, fileName } = await fetchDownload(statementPath(userId), { ...request, format }, `statement-${request.account}-${request.from}-${request.to}.${format}`);
      saveBlob(blob, fileName);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="statement-downloads">
      <Button variant="secondary" disabled={!request || busy !== null} loading={busy === 'csv'} onClick={() => void download('csv')}>
        {label('CSV')}
      </Button>
      <Button variant="secondary" disabled={!request || busy !== null} loading={busy === 'pdf'} onClick={() => void download('pdf')}>
        {label('PDF')}
      </Button>
      {error ? <Alert kind="error">{error}</Alert> : null}
    </div>
  );
}
