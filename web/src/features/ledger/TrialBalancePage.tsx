import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { formatInstant, fromLocalInputValue, toLocalInputValue } from '../audit/auditFormat';
import { LedgerAccountsTable } from './LedgerAccountsTable';
import { LedgerDownloads } from './LedgerDownloads';
import { useTrialBalance } from './ledgerApi';
import type { TrialBalance } from './ledgerTypes';

function BalancedVerdict({ trial }: { trial: TrialBalance }) {
  return trial.balanced ? (
    <Alert kind="success">
      <strong>Balanced</strong>: the debits equal the credits ({formatMoney(trial.totalDebits)}).
    </Alert>
  ) : (
    <Alert kind="error">
      <strong>Not balanced</strong>: the debits ({formatMoney(trial.totalDebits)}) differ from the credits ({formatMoney(trial.totalCredits)}). Check the
      reconciliation and the day closes.
    </Alert>
  );
}

/**
 * /audit/ledger: the trial balance now (empty picker) or at a chosen instant (`?at=`, replayed from the log), with
 * its totals, whether it balances, and CSV / PDF downloads of what is shown.
 */
export function TrialBalancePage() {
  const inputId = useId();
  const [params, setParams] = useSearchParams();
  const at = params.get('at') ?? undefined;
  const [draft, setDraft] = useState(at ? toLocalInputValue(new Date(at)) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const trial = useTrialBalance(at);

  const show = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) {
      setProblem(null);
      setParams({});
      return;
    }
    const instant = fromLocalInputValue(draft);
    if (!instant) {
      setProblem('Enter a date and time, or leave it empty for now');
      return;
    }
    setProblem(null);
    setParams({ at: instant });
  };

  return (
    <section aria-labelledby="trial-balance-heading">
      <h2 id="trial-balance-heading">Trial balance</h2>
      <form className="ledger-at-form" onSubmit={show} noValidate aria-label="Trial balance as of">
        <div className={`field ledger-at-field${problem ? ' field-invalid' : ''}`}>
          <label htmlFor={inputId}>As of (your local time)</label>
          <input
            id={inputId}
            type="datetime-local"
            step={1}
            value={draft}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${inputId}-hint${problem ? ` ${inputId}-error` : ''}`}
            onChange={(event) => setDraft(event.target.value)}
          />
          <div className="field-hint" id={`${inputId}-hint`}>
            Empty: now. A past instant is replayed from the log.
          </div>
          {problem ? (
            <div className="field-error" id={`${inputId}-error`}>
              {problem}
            </div>
          ) : null}
        </div>
        <div className="ledger-filter-actions">
          <Button type="submit">Show</Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDraft('');
              setProblem(null);
              setParams({});
            }}
          >
            Now
          </Button>
        </div>
      </form>
      {trial.isPending ? (
        <LoadingBlock label={at ? 'Replaying the log…' : 'Loading the trial balance…'} />
      ) : trial.isError ? (
        <Alert kind="error">{errorMessage(trial.error)}</Alert>
      ) : (
        <div aria-busy={trial.isFetching || undefined}>
          <p className="audit-as-of" data-testid="trial-balance-as-of">
            As of <time dateTime={trial.data.at}>{formatInstant(trial.data.at)}</time>
            {at ? '' : ' (now)'}
          </p>
          <BalancedVerdict trial={trial.data} />
          <LedgerAccountsTable
            caption={`${trial.data.accounts.length} accounts`}
            accounts={trial.data.accounts}
            totals={{ debits: trial.data.totalDebits, credits: trial.data.totalCredits }}
          />
          <LedgerDownloads
            path="/audit/ledger/trial-balance"
            query={{ at }}
            fileName={`trial-balance-${trial.data.at.slice(0, 19).replace(/:/g, '')}`}
            what="trial balance"
            formats={['csv', 'pdf']}
          />
        </div>
      )}
    </section>
  );
}
