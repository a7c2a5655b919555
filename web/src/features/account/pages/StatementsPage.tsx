import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useSession } from '../../../lib/session/SessionContext';
import { StatementDownloads } from '../../statements/StatementDownloads';
import { StatementPicker } from '../../statements/StatementPicker';
import { StatementView } from '../../statements/StatementView';
import { initialChoice, requestOf } from '../../statements/statementChoice';
import { useStatement } from '../../statements/useStatement';
import { PageTitle } from '../components/PageTitle';

/** /account/statements: a statement of one account for a month (the last full one by default) or any range; CSV and PDF. */
export function StatementsPage() {
  const { user } = useSession();
  const [choice, setChoice] = useState(() => initialChoice(new Date()));
  const request = requestOf(choice);
  const statement = useStatement(user?._id ?? '', request);

  return (
    <div className="portal-page">
      <PageTitle lead="Your balance at the start and the end of a period, and every payment in between. Download it for a landlord, a tax return or a loan.">
        Statements
      </PageTitle>
      <section className="portal-card" aria-label="Choose a statement">
        <StatementPicker value={choice} onChange={setChoice} />
        <StatementDownloads request={request} />
      </section>
      <section className="portal-card" aria-label="Statement">
        {!request ? <p>Choose the first and last day of the period.</p> : null}
        {request && statement.isPending ? <LoadingBlock label="Loading the statement…" /> : null}
        {statement.isError ? (
          <Alert kind="error">
            {errorMessage(statement.error)}{' '}
            <Button variant="link" onClick={() => void statement.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {request && statement.isSuccess ? <StatementView statement={statement.data} /> : null}
      </section>
    </div>
  );
}
