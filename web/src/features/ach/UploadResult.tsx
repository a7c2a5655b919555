import { reasonWords } from './achFormat';
import type { AchIncomingResult, AchReturnsResult, AchTraceReason } from './achTypes';

function TraceTable({ rows, caption }: { rows: readonly AchTraceReason[]; caption: string }) {
  return (
    <div className="audit-table-wrap">
      <table className="audit-table ach-table ach-trace-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Trace number</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.traceNumber}-${row.reason}`}>
              <th scope="row" data-label="Trace number" className="ach-mono ach-number">
                {row.traceNumber}
              </th>
              <td data-label="Reason">{reasonWords(row.reason)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** POST /admin/ach/returns answered: returns applied now, applied before, and those that matched no entry of ours. */
export function ReturnsResult({ result }: { result: AchReturnsResult }) {
  return (
    <section className="ach-result" aria-label="Result of the returns file">
      <p role="status" className="ach-result-title">
        Returns file read.
      </p>
      <dl className="ach-facts">
        <Count label="Applied" value={result.applied} />
        <Count label="Already applied" value={result.alreadyApplied} />
        <Count label="Unmatched" value={result.unmatched.length} />
      </dl>
      {result.unmatched.length > 0 ? <TraceTable rows={result.unmatched} caption="Unmatched returns: no entry of ours has this original trace number" /> : null}
    </section>
  );
}

/** POST /admin/ach/incoming answered: credits applied, entries the bank will return (R02/R03), entries seen before. */
export function IncomingResult({ result }: { result: AchIncomingResult }) {
  return (
    <section className="ach-result" aria-label="Result of the incoming file">
      <p role="status" className="ach-result-title">
        Incoming file read.
      </p>
      <dl className="ach-facts">
        <Count label="Credited" value={result.credited} />
        <Count label="Returned" value={result.returned.length} />
        <Count label="Already applied" value={result.alreadyApplied} />
      </dl>
      {result.returned.length > 0 ? <TraceTable rows={result.returned} caption="Returned: sent back to the originating bank in the next file" /> : null}
    </section>
  );
}
