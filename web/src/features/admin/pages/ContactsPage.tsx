import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { formatDateTime } from '../../../components/money';
import { QueryPager } from '../../../components/Pager';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useCursorTrail } from '../../../lib/api/paging';
import { useContacts } from '../../../lib/api/queries/useContacts';
import { useDeleteContact } from '../../../lib/api/queries/useDeleteContact';
import { AdminPageTitle } from '../components/AdminPageTitle';

/** /admin/contacts: the messages sent through the contact form, each with Delete, a page at a time. */
export function ContactsPage() {
  const trail = useCursorTrail();
  const contacts = useContacts(trail.cursor);
  const messages = contacts.data?.data;
  const remove = useDeleteContact();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);

  const deleteContact = (id: string) => {
    setResult(null);
    remove.mutate(id, {
      onSuccess: () => setResult({ kind: 'success', message: 'Contact deleted' }),
      onError: () => setResult({ kind: 'error', message: 'Error deleting contact' }),
    });
  };

  return (
    <div className="admin-page">
      <AdminPageTitle lead="Messages from the contact form, newest first.">Contacts</AdminPageTitle>
      {result ? (
        <Alert kind={result.kind} onDismiss={() => setResult(null)}>
          {result.message}
        </Alert>
      ) : null}
      {contacts.isPending ? <LoadingBlock label="Loading messages…" /> : null}
      {contacts.isError ? <Alert kind="error">{errorMessage(contacts.error)}</Alert> : null}
      {messages?.length === 0 && !trail.hasPrevious ? <EmptyState title="No contact messages." /> : null}
      {messages && messages.length > 0 ? (
        <ul className="admin-cards" aria-label="Contact messages">
          {messages.map((contact) => (
            <li key={contact._id}>
              <article className="admin-card admin-contact" aria-labelledby={`contact-${contact._id}`}>
                <header>
                  <h2 id={`contact-${contact._id}`}>{contact.subject || 'No subject'}</h2>
                  <p className="admin-muted">
                    {contact.name} · <a href={`mailto:${contact.email}`}>{contact.email}</a>
                    {contact.phone ? ` · ${contact.phone}` : ''}
                  </p>
                  {contact.createdAt ? <p className="admin-muted">{formatDateTime(contact.createdAt)}</p> : null}
                </header>
                <p className="admin-contact-message">{contact.message}</p>
                <Button
                  variant="danger"
                  className="admin-small-btn"
                  loading={remove.isPending && remove.variables === contact._id}
                  onClick={() => deleteContact(contact._id)}
                  aria-label={`Delete message from ${contact.name}`}
                >
                  Delete
                </Button>
              </article>
            </li>
          ))}
        </ul>
      ) : null}
      <QueryPager label="Contact messages" trail={trail} query={contacts} />
    </div>
  );
}
