import { Link, useParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { ApiError, errorMessage } from '../../lib/api/apiError';
import { formatInstant } from '../audit/auditFormat';
import { useAchFile } from './achApi';
import { ACH_PATH, countOf, isReturnEntry, statusWords, transactionCodeWords } from './achFormat';
import type { AchEntry, AchFileDetail } from './achTypes';
import { CopyHash } from './CopyHash';
import { DownloadAchFile } from './DownloadAchFile';

function EntryRow({ entry }: { entry: AchEntry }) {
  return (
    <tr>
      <th scope="row" data-label="Trace number" className="ach-mono ach-number">
        {entry.traceNumber}
      </th>
      <td data-label="Code">{transactionCodeWords(entry.transactionCode)}</td>
      <td data-label="Name">{entry.name}</td>
      <td data-label="Routing number" className="ach-mono ach-number">
        {entry.routingNumber}
      </td>
      <td data-label="Account number" className="ach-mono ach-number">
        {entry.accountNumber}
      </td>
      <td data-label="Amount" className="num">
        {formatMoney(entry.amount)}
      </td>
      <td data-label="Transfer" className="ach-small">
        {isReturnEntry(entry.transactionCode) ? <span className="audit-muted">Return </span> : null}
        <span className="ach-mono">{entry.transferId}</span>
      </td>
    </tr>
  );
}

function FileFacts({ file }: { file: AchFileDetail }) {
  return (
    <dl className="ach-facts">
      <div>
        <dt>Created</dt>
        <dd>
          <time dateTime={file.createdAt}>{formatInstant(file.createdAt)}</time>
        </dd>
      </div>
      <div>
        <dt>Effective date</dt>
        <dd>{file.effectiveDate}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <span className={`ach-status ach-status-${file.status}`}>{statusWords[file.status] ?? file.status}</span>
        </dd>
      </div>
      <div>
        <dt>Entries</dt>
        <dd>{file.entryCount}</dd>
      </div>
      <div>
        <dt>Total debit</dt>
        <dd>{formatMoney(file.totalDebit)}</dd>
      </div>
      <div>
        <dt>Total credit</dt>
        <dd>{formatMoney(file.totalCredit)}</dd>
      </div>
      <div className="ach-facts-wide">
        <dt>SHA-256</dt>
        <dd>
          <CopyHash sha256={file.sha256} full />
        </dd>
      </div>
    </dl>
  );
}

/** /audit/ach/files/:id: a file's fields, its download and its entries (each with the transfer it carries). */
export function AchFilePage() {
  const { id = '' } = useParams();
  const file = useAchFile(id);
  return (
    <section aria-labelledby="ach-file-heading">
      <Link to={ACH_PATH} className="ach-back">
        ← All files
      </Link>
      {file.isPending ? (
        <LoadingBlock label="Loading the file…" />
      ) : file.isError ? (
        <>
          <h2 id="ach-file-heading">ACH file</h2>
          <Alert kind="error">
            {file.error instanceof ApiError && file.error.status === 404 ? `No ACH file with the id “${id}”.` : errorMessage(file.error)}{' '}
            {file.error instanceof ApiError && file.error.status === 404 ? null : (
              <Button variant="link" onClick={() => void file.refetch()}>
                Try again
              </Button>
            )}
          </Alert>
        </>
      ) : (
        <>
          <div className="ach-head">
            <h2 id="ach-file-heading">File effective {file.data.effectiveDate}</h2>
            <DownloadAchFile file={file.data} variant="secondary" />
          </div>
          <FileFacts file={file.data} />
          <h3>Entries</h3>
          {file.data.entries.length === 0 ? (
            <EmptyState title="This file holds no entries." />
          ) : (
            <div className="audit-table-wrap">
              <table className="audit-table stack-table ach-table">
                <caption>{`${countOf(file.data.entries.length, 'entry', 'entries')}, in file order`}</caption>
                <thead>
                  <tr>
                    <th scope="col">Trace number</th>
                    <th scope="col">Code</th>
                    <th scope="col">Name</th>
                    <th scope="col">Routing number</th>
                    <th scope="col">Account number</th>
                    <th scope="col" className="num">
                      Amount
                    </th>
                    <th scope="col">Transfer</th>
                  </tr>
                </thead>
                <tbody>
                  {file.data.entries.map((entry) => (
                    <EntryRow key={entry.traceNumber} entry={entry} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
