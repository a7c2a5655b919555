import { errorMessage } from '../../../lib/api/apiError';

/** What an admin action answered, shown in the page's alert. */
export type ActionResult = { readonly kind: 'success' | 'error'; readonly message: string } | null;

interface DeleteMutation<Id> {
  readonly isPending: boolean;
  mutate(id: Id, callbacks: { onSuccess: (answer: { message?: string } | undefined) => void; onError: (error: unknown) => void }): void;
}

/**
 * A delete after the browser's native confirmation (spec §5): nothing while one is pending or when the admin
 * cancels; otherwise the alert is cleared, and then shows the server's message (or `done`) or the error.
 */
export function confirmedDelete<Id>(mutation: DeleteMutation<Id>, question: string, done: string, report: (result: ActionResult) => void): (id: Id) => void {
  return (id) => {
    if (mutation.isPending) return;
    if (!window.confirm(question)) return;
    report(null);
    mutation.mutate(id, {
      onSuccess: (answer) => report({ kind: 'success', message: answer?.message ?? done }),
      onError: (error) => report({ kind: 'error', message: errorMessage(error) }),
    });
  };
}
