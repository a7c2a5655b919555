import { useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { formatInstant } from '../audit/auditFormat';
import { AsOfForm } from './AsOfForm';
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
  const [params, setParams] = useSearchParams();
  const at = params.get('at') ?? undefined;
  const trial = useTrialBalance(at);

  return (
    <section aria-labelledby="trial-balance-heading">
      <h2 id="trial-balance-heading">Trial balance</h2>
      <AsOfForm key={at ?? 'now'} at={at} onChange={(instant) => setParams(instant ? { at: instant } : {})} />
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
