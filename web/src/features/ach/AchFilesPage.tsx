import { Link } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { isAdminUser } from '../../lib/session/guards';
import { useSession } from '../../lib/session/SessionContext';
import { formatInstant } from '../audit/auditFormat';
import { useAchFiles } from './achApi';
import { achFilePath, countOf, statusWords } from './achFormat';
import type { AchFileSummary } from './achTypes';
import { BuildAchFile } from './BuildAchFile';
import { CopyHash } from './CopyHash';
import { DownloadAchFile } from './DownloadAchFile';

function FileRow({ file }: { file: AchFileSummary }) {
  return (
    <tr>
      <th scope="row" data-label="Created">
        <Link to={achFilePath(file.id)}>
          <time dateTime={file.createdAt}>{formatInstant(file.createdAt)}</time>
        </Link>
      </th>
      <td data-label="Effective date">{file.effectiveDate}</td>
      <td data-label="Entries" className="num">
        {file.entryCount}
      </td>
      <td data-label="Total debit" className="num">
        {formatMoney(file.totalDebit)}
      </td>
      <td data-label="Total credit" className="num">
        {formatMoney(file.totalCredit)}
      </td>
      <td data-label="Status">
        <span className={`ach-status ach-status-${file.status}`}>{statusWords[file.status] ?? file.status}</span>
      </td>
      <td data-label="SHA-256">
        <CopyHash sha256={file.sha256} />
      </td>
      <td data-label="File">
        <DownloadAchFile file={file} />
      </td>
    </tr>
  );
}

/** /audit/ach: the files, newest first as the API lists them, a page at a time; admins can build one now. */
export function AchFilesPage() {
  const { user } = useSession();
  const files = useAchFiles();
  return (
    <section aria-labelledby="ach-files-heading">
      <div className="ach-head">
        <h2 id="ach-files-heading">Files</h2>
        {isAdminUser(user) ? <BuildAchFile /> : null}
      </div>
      {files.isPending ? (
        <LoadingBlock label="Loading the ACH files…" />
      ) : files.isError && !files.isFetchNextPageError ? (
        <Alert kind="error">
          {errorMessage(files.error)}{' '}
          <Button variant="link" onClick={() => void files.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : files.data === undefined || files.data.length === 0 ? (
        <EmptyState title="No ACH file has been built yet.">
          <p className="audit-muted">Files are built at each cut-off from the external transfers waiting{isAdminUser(user) ? ', or now with Build file now' : ''}.</p>
        </EmptyState>
      ) : (
        <>
          <div className="audit-table-wrap">
            <table className="audit-table stack-table ach-table">
              <caption>{`${countOf(files.data.length, 'file', 'files')}${files.hasNextPage ? ' shown, more to load' : ''}`}</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Effective date</th>
                  <th scope="col" className="num">
                    Entries
                  </th>
                  <th scope="col" className="num">
                    Total debit
                  </th>
                  <th scope="col" className="num">
                    Total credit
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">SHA-256</th>
                  <th scope="col">File</th>
                </tr>
              </thead>
              <tbody>
                {files.data.map((file) => (
                  <FileRow key={file.id} file={file} />
                ))}
              </tbody>
            </table>
          </div>
          {files.hasNextPage ? (
            <Button variant="secondary" loading={files.isFetchingNextPage} onClick={() => void files.fetchNextPage()}>
              Show more files
            </Button>
          ) : null}
          {files.isFetchNextPageError ? <Alert kind="error">{errorMessage(files.error)}</Alert> : null}
        </>
      )}
    </section>
  );
}
