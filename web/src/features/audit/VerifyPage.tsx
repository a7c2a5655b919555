import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/api/apiError';
import { useVerify } from './auditApi';
import type { VerifyReport } from './auditTypes';

const kinds = { chain: 'Hash chain', stream_head: 'Missing events', schema: 'Unreadable event', read_model: 'Read model', checkpoint: 'Signed checkpoint' } as const;

/** /audit/verify — checks every stream's hash chain and every balance of the read models against a replay. */
/** ` and N standing orders` when the server compared them. */
function checkedOrders(report: VerifyReport): string {
  const count = report.checked.standingOrders;
  return count === undefined ? '' : ` and ${count} standing order${count === 1 ? '' : 's'}`;
}

export function VerifyPage() {
  const verify = useVerify();
  const report = verify.data;
  return (
    <section className="audit-page">
      <h1>Verify the record</h1>
      <p className="audit-muted">
        Recomputes the hash chain of every stream of the event store, compares the log with its signed checkpoints and
        replays every customer's balances to compare them with what the bank shows. Nothing is changed.
      </p>
      <Button onClick={() => verify.mutate()} loading={verify.isPending}>
        {report ? 'Verify again' : 'Verify'}
      </Button>
      {verify.isError ? <Alert kind="error">{errorMessage(verify.error)}</Alert> : null}
      {report && !verify.isPending ? (
        <div className="audit-verify-result">
          <p className="audit-muted">
            {report.checkpoint
              ? `Compared with the signed checkpoint of ${new Date(report.checkpoint.writtenAt).toLocaleString()} (${report.checkpoint.streams} streams, position ${report.checkpoint.position}).`
              : 'No signed checkpoint was found: deletions of the newest events of a stream cannot be shown.'}
          </p>
          {(report.notes ?? []).map((note) => (
            <Alert key={note} kind="info">
              {note}
            </Alert>
          ))}
          {report.ok ? (
            <Alert kind="success">
              The record is intact: {report.checked.events} events in {report.checked.streams} streams, {report.checked.balances} balances
              {checkedOrders(report)} checked.
            </Alert>
          ) : (
            <>
              <Alert kind="error">
                {report.mismatches.length} {report.mismatches.length === 1 ? 'problem' : 'problems'} found ({report.checked.events} events in{' '}
                {report.checked.streams} streams, {report.checked.balances} balances{checkedOrders(report)} checked).
              </Alert>
              <div className="audit-table-wrap">
                <table className="audit-table">
                  <caption>What fails</caption>
                  <thead>
                    <tr>
                      <th scope="col">Check</th>
                      <th scope="col">Stream</th>
                      <th scope="col">Revision</th>
                      <th scope="col">Position</th>
                      <th scope="col">What</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.mismatches.map((mismatch, index) => (
                      <tr key={`${mismatch.stream}-${index}`}>
                        <td data-label="Check">{kinds[mismatch.kind] ?? mismatch.kind}</td>
                        <td data-label="Stream">{mismatch.stream}</td>
                        <td data-label="Revision">{mismatch.revision ?? '—'}</td>
                        <td data-label="Position">{mismatch.position ?? '—'}</td>
                        <td data-label="What">{mismatch.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}
