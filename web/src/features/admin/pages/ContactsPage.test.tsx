import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleAdmin } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const message = {
  _id: 'm1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '555-0101',
  subject: 'Card limit',
  message: 'Please raise my card limit.',
  createdAt: '2025-03-01T09:00:00.000Z',
};

describe('/admin/contacts', () => {
  it("shows the messages as cards; Delete says 'Contact deleted' and the list reloads", async () => {
    let deleted = false;
    const { callsTo } = mockApi({
      'GET /api/contacts': () => json(200, { data: deleted ? [] : [message] }),
      'DELETE /api/contacts/m1': () => {
        deleted = true;
        return json(200, { message: 'Contact deleted' });
      },
    });
    renderRoutes(adminRoutes, '/admin/contacts', sampleAdmin());
    expect(await screen.findByRole('heading', { name: 'Card limit' })).toBeInTheDocument();
    expect(screen.getByText('Please raise my card limit.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete message from Ada Lovelace' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Contact deleted');
    expect(callsTo('DELETE', '/api/contacts/m1')).toHaveLength(1);
    await waitFor(() => expect(screen.getByText('No contact messages.')).toBeInTheDocument());
  });

  it("says 'Error deleting contact' when the server refuses", async () => {
    mockApi({ 'GET /api/contacts': () => json(200, { data: [message] }), 'DELETE /api/contacts/m1': () => json(500, { message: 'boom' }) });
    renderRoutes(adminRoutes, '/admin/contacts', sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete message from Ada Lovelace' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error deleting contact');
  });

  it('pages the messages with Next and Previous', async () => {
    const { callsTo } = mockApi({
      'GET /api/contacts': ({ url }) =>
        json(200, url.searchParams.get('cursor') === 'older' ? { data: [{ ...message, _id: 'm2', subject: 'Older question' }], next: null } : { data: [message], next: 'older' }),
    });
    renderRoutes(adminRoutes, '/admin/contacts', sampleAdmin());
    expect(await screen.findByText('Card limit')).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Contact messages pages' })).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Older question')).toBeInTheDocument();
    expect(callsTo('GET', '/api/contacts').at(-1)!.url.searchParams.get('cursor')).toBe('older');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Contact messages pages' })).getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Card limit')).toBeInTheDocument();
  });
});
