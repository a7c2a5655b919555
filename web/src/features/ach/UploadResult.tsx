import { reasonWords } from './achFormat';
import type { AchIncomingResult, AchReturnsResult, AchTraceReason } from './achTypes';

function TraceTable({ rows, caption }: { rows: readonly AchTraceReason[]; caption: string }) {
  return (
    <div className="audit-table-wrap">
      <table className="audit-table stack-table ach-table ach-trace-table">
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

interface UploadSummaryProps {
  readonly label: string;
  readonly title: string;
  readonly counts: readonly (readonly [label: string, value: number])[];
  readonly traces: readonly AchTraceReason[];
  readonly tracesCaption: string;
}

/** What an uploaded file did: its counts, and the entries that need a word of their own (when there are any). */
function UploadSummary({ label, title, counts, traces, tracesCaption }: UploadSummaryProps) {
  return (
    <section className="ach-result" aria-label={label}>
      <p role="status" className="ach-result-title">
        {title}
      </p>
      <dl className="ach-facts">
        {counts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {traces.length > 0 ? <TraceTable rows={traces} caption={tracesCaption} /> : null}
    </section>
  );
}

/** POST /admin/ach/returns answered: returns applied now, applied before, and those that matched no entry of ours. */
export function ReturnsResult({ result }: { result: AchReturnsResult }) {
  return (
    <UploadSummary
      label="Result of the returns file"
      title="Returns file read."
      counts={[
        ['Applied', result.applied],
        ['Already applied', result.alreadyApplied],
        ['Unmatched', result.unmatched.length],
      ]}
      traces={result.unmatched}
      tracesCaption="Unmatched returns: no entry of ours has this original trace number"
    />
  );
}

/** POST /admin/ach/incoming answered: credits applied, entries the bank will return (R02/R03), entries seen before. */
export function IncomingResult({ result }: { result: AchIncomingResult }) {
  return (
    <UploadSummary
      label="Result of the incoming file"
      title="Incoming file read."
      counts={[
        ['Credited', result.credited],
        ['Returned', result.returned.length],
        ['Already applied', result.alreadyApplied],
      ]}
      traces={result.returned}
      tracesCaption="Returned: sent back to the originating bank in the next file"
    />
  );
}
