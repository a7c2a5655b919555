import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { json, mockApi, renderRoutes, sampleAdmin } from '../../../lib/api/queries/testing/testApi';
import { leaving } from '../../../lib/browser/leaveAppFor';
import { adminRoutes } from '../routes';

let leaveAppFor: MockInstance<(url: string) => void>;

beforeEach(() => {
  leaveAppFor = vi.spyOn(leaving, 'go').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  leaveAppFor.mockRestore();
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
