import { useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/api/apiError';
import { fetchDownload, saveBlob } from '../../lib/api/downloadFile';

type Format = 'csv' | 'pdf';

export interface LedgerDownloadsProps {
  /** The API path that answers the file with `format=`. */
  readonly path: string;
  /** The same filters as the page shows (empty values are left out). */
  readonly query: Record<string, string | undefined>;
  /** The file's name without extension, when the server sends none. */
  readonly fileName: string;
  /** What the files hold, in the buttons' names: "Download trial balance CSV". */
  readonly what: string;
  readonly formats: readonly Format[];
}

/** CSV / PDF downloads of a ledger report: fetched with the session's token (a link cannot carry it), then saved. */
export function LedgerDownloads({ path, query, fileName, what, formats }: LedgerDownloadsProps) {
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (format: Format) => {
    setBusy(format);
    setError(null);
    try {
      const filters = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
      const file = await fetchDownload(path, { ...filters, format }, `${fileName}.${format}`);
      saveBlob(file.blob, file.fileName);
    } catch (caught) {
      setError(errorMessage(caught, 'The file could not be downloaded'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="ledger-downloads">
      {formats.map((format) => (
        <Button key={format} variant="secondary" disabled={busy !== null} loading={busy === format} onClick={() => void download(format)}>
          {`Download ${what} ${format.toUpperCase()}`}
        </Button>
      ))}
      {error ? <Alert kind="error">{error}</Alert> : null}
    </div>
  );
}
