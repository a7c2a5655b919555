import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ID, json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/admin/users', () => {
  it('lists index, first name, last name, e-mail and View; the search box filters through the API', async () => {
    const { callsTo } = mockApi({
      'GET /api/user/admin': ({ url }) =>
        json(200, {
          data: url.searchParams.get('search') === 'alan' ? [sampleUser({ _id: 'u2', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' })] : [sampleUser()],
        }),
    });
    renderRoutes(adminRoutes, '/admin/users', sampleAdmin());
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['#', 'First name', 'Last name', 'E-mail', 'Actions']);
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['1', 'Grace', 'Hopper', 'grace@example.com', 'View']);
    expect(within(row).getByRole('link', { name: 'View Grace Hopper' })).toHaveAttribute('href', `/admin/users/${CUSTOMER_ID}`);
    await userEvent.type(screen.getByLabelText('Search users'), 'alan');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Alan')).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET', '/api/user/admin').at(-1)?.url.searchParams.get('search')).toBe('alan'));
  });

  it('says when nobody matches, and shows errors', async () => {
    mockApi({ 'GET /api/user/admin': () => json(200, { data: [] }) });
    const first = renderRoutes(adminRoutes, '/admin/users?search=zed', sampleAdmin());
    expect(await screen.findByText('No user matches “zed”.')).toBeInTheDocument();
    first.unmount();
    mockApi({ 'GET /api/user/admin': () => json(500, { message: 'Something went wrong (request 7)' }) });
    renderRoutes(adminRoutes, '/admin/users', sampleAdmin());
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong (request 7)');
  });
});
