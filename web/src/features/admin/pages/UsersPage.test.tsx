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

  it('pages with Next and Previous through the cursors the API answers, numbering rows across pages', async () => {
    const pageOf = (cursor: string | null) =>
      cursor === 'c2'
        ? { data: [sampleUser({ _id: 'u3', firstName: 'Third' })], next: null }
        : { data: [sampleUser({ _id: 'u1', firstName: 'First' }), sampleUser({ _id: 'u2', firstName: 'Second' })], next: 'c2' };
    const { callsTo } = mockApi({ 'GET /api/user/admin': ({ url }) => json(200, pageOf(url.searchParams.get('cursor'))) });
    renderRoutes(adminRoutes, '/admin/users', sampleAdmin());
    expect(await screen.findByText('First')).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Users pages' });
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(callsTo('GET', '/api/user/admin')[0]!.url.searchParams.get('limit')).toBe('50');
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Third')).toBeInTheDocument();
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(callsTo('GET', '/api/user/admin').at(-1)!.url.searchParams.get('cursor')).toBe('c2');
    expect(within(screen.getByRole('table', { name: 'Users' })).getAllByRole('row')[1]!.firstElementChild).toHaveTextContent('51');
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Users pages' })).getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Users pages' })).getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('First')).toBeInTheDocument();
    expect(callsTo('GET', '/api/user/admin').some((call) => call.url.searchParams.has('offset'))).toBe(false);
  });

  it('searches as you type once typing pauses (one request for the whole word), from the first page', async () => {
    const { callsTo } = mockApi({
      'GET /api/user/admin': ({ url }) =>
        json(
          200,
          url.searchParams.get('search') === 'turing'
            ? { data: [sampleUser({ _id: 'u9', firstName: 'Alan', lastName: 'Turing' })], next: null }
            : { data: [sampleUser()], next: url.searchParams.get('cursor') ? null : 'c2' },
        ),
    });
    renderRoutes(adminRoutes, '/admin/users', sampleAdmin());
    await screen.findByText('Grace');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Users pages' })).getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2');
    await userEvent.type(screen.getByLabelText('Search users'), 'turing');
    expect(await screen.findByText('Alan')).toBeInTheDocument();
    const searches = callsTo('GET', '/api/user/admin').filter((call) => call.url.searchParams.has('search'));
    expect(searches.map((call) => call.url.searchParams.get('search'))).toEqual(['turing']);
    expect(searches[0]!.url.searchParams.has('cursor')).toBe(false);
    expect(screen.queryByRole('navigation', { name: 'Users pages' })).not.toBeInTheDocument();
  });
});
