import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { EmptyState } from '../../../components/EmptyState';
import { errorMessage } from '../../../lib/api/apiError';
import { useRequestCard } from '../../../lib/api/queries/useRequestCard';
import { PageTitle } from '../components/PageTitle';

const CARD_REQUEST_SENT = 'Card request sent we will get back to you';

/** /account/cards: no cards yet; Request Card asks the bank for one (POST /api/cards/requests). */
export function CardsPage() {
  const request = useRequestCard();
  const [confirmation, setConfirmation] = useState<string | null>(null);

  return (
    <div className="portal-page">
      <PageTitle lead="Debit and credit cards linked to your accounts.">Cards</PageTitle>
      <section className="portal-card">
        <EmptyState title="You have no cards yet">
          <p>Request a card and we will get in touch to set it up.</p>
          <Button
            loading={request.isPending}
            onClick={() =>
              request.mutate(undefined, {
                onSuccess: (answer) => setConfirmation(answer.message ?? CARD_REQUEST_SENT),
              })
            }
          >
            Request Card
          </Button>
        </EmptyState>
        {request.isError ? <Alert kind="error">{errorMessage(request.error)}</Alert> : null}
      </section>
      <Dialog open={confirmation !== null} title="Card request" onConfirm={() => setConfirmation(null)}>
        <p>{confirmation}</p>
      </Dialog>
    </div>
  );
}
