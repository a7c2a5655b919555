import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleAdmin } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

const leaveAppFor = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/browser/leaveAppFor', () => ({ leaveAppFor }));

afterEach(() => {
  vi.unstubAllGlobals();
  leaveAppFor.mockReset();
  localStorage.clear();
});

describe('the queue dashboard link', () => {
  it('opens a dashboard session with the admin token, then goes to the dashboard', async () => {
    const { callsTo } = mockApi({ 'POST /api/admin/queues/session': () => json(201, { message: 'Queue dashboard opened', data: { url: '/api/admin/queues' } }) });
    renderRoutes(adminRoutes, '/admin/dashboard', sampleAdmin());
    const main = within(await screen.findByRole('main'));
    await userEvent.click(main.getByRole('link', { name: 'Queue dashboard' }));
    await waitFor(() => expect(leaveAppFor).toHaveBeenCalledWith('/api/admin/queues'));
    expect(callsTo('POST', '/api/admin/queues/session')).toHaveLength(1);
    expect(callsTo('POST', '/api/admin/queues/session')[0]?.headers.Authorization).toBe('Bearer test-token');
  });

  it('says so when the session cannot be opened, and stays on the page', async () => {
    mockApi({ 'POST /api/admin/queues/session': () => json(503, { message: 'Service temporarily unavailable' }) });
    renderRoutes(adminRoutes, '/admin/dashboard', sampleAdmin());
    const main = within(await screen.findByRole('main'));
    await userEvent.click(main.getByRole('link', { name: 'Queue dashboard' }));
    expect(await main.findByRole('alert')).toHaveTextContent('Could not open the queue dashboard: Service temporarily unavailable');
    expect(leaveAppFor).not.toHaveBeenCalled();
  });
});
