import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useTransactionHistory } from '../../../lib/api/queries/useTransactionHistory';
import { ButtonLink } from '../../../components/ButtonLink';
import { PageTitle } from '../components/PageTitle';
import { TransactionList } from '../components/TransactionList';
import { useFlashMessage } from '../../../lib/router/useFlashMessage';

/** /account/transactions: the full history, newest first, a page at a time ("Load more"). */
export function TransactionsPage() {
  const history = useTransactionHistory();
  const [flash, setFlash] = useFlashMessage();
  const transactions = history.data?.pages.flat() ?? [];

  return (
    <div className="portal-page">
      <PageTitle lead="Every payment in and out of your savings and checking accounts." actions={<ButtonLink to="/account/transfer">New transfer</ButtonLink>}>
        Transactions
      </PageTitle>
      {flash ? (
        <Alert kind="success" onDismiss={() => setFlash(null)}>
          {flash}
        </Alert>
      ) : null}
      <section className="portal-card" aria-label="Transaction history">
        {history.isPending ? <LoadingBlock label="Loading transactions…" /> : null}
        {history.isError && transactions.length === 0 ? (
          <Alert kind="error">
            {errorMessage(history.error)}{' '}
            <Button variant="link" onClick={() => void history.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {history.isSuccess && transactions.length === 0 ? <EmptyState title="No transactions yet">Money you send or receive shows here.</EmptyState> : null}
        {transactions.length > 0 ? <TransactionList transactions={transactions} label="Transactions" /> : null}
        {history.isFetchNextPageError ? <Alert kind="error">{errorMessage(history.error)}</Alert> : null}
        {history.hasNextPage ? (
          <div className="portal-more">
            <Button variant="secondary" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
              Load more
            </Button>
          </div>
        ) : null}
      </section>
    </div>
  );
}
