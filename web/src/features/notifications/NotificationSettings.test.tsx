import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationSetting } from '../../lib/api/types';
import { json, mockApi, renderRoutes } from '../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../account/routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const settings = (changes: Partial<Record<string, boolean>> = {}): NotificationSetting[] => [
  { kind: 'moneyReceived', enabled: changes.moneyReceived ?? true, locked: false },
  { kind: 'transferReturned', enabled: true, locked: false },
  { kind: 'standingOrderFailed', enabled: true, locked: false },
  { kind: 'interestPaid', enabled: true, locked: false },
  { kind: 'statementReady', enabled: true, locked: false },
  { kind: 'newDevice', enabled: true, locked: true },
  { kind: 'passwordChanged', enabled: true, locked: true },
  { kind: 'secondFactorChanged', enabled: true, locked: true },
];

describe('/account/notifications', () => {
  it('is linked from Settings', async () => {
    mockApi({});
    renderRoutes(accountRoutes, '/account/settings');
    const main = within(await screen.findByRole('main'));
    expect(await main.findByRole('link', { name: /Notifications/ })).toHaveAttribute('href', '/account/notifications');
  });

  it('lists every kind, the security notices always on and locked, and saves a switch at once', async () => {
    const { callsTo } = mockApi({
      'GET /api/user/notifications': () => json(200, { data: settings() }),
      'PUT /api/user/notifications': (call) => json(200, { data: settings(call.body as Record<string, boolean>) }),
    });
    renderRoutes(accountRoutes, '/account/notifications');
    const money = await screen.findByRole('switch', { name: /Money received/ });
    expect(money).toBeChecked();
    expect(money).toBeEnabled();
    for (const name of [/Transfer returned/, /Standing order problems/, /Interest paid/, /Statement ready/]) expect(screen.getByRole('switch', { name })).toBeEnabled();
    const security = within(screen.getByRole('region', { name: 'Security notices' }));
    for (const name of [/Sign-in from a new device/, /Password changed/, /Two-step sign-in changed/]) {
      const locked = security.getByRole('switch', { name });
      expect(locked).toBeChecked();
      expect(locked).toBeDisabled();
    }
    expect(security.getAllByText('Always on')).toHaveLength(3);

    await userEvent.click(money);
    expect(await screen.findByText('Money received: off. Saved.')).toBeInTheDocument();
    expect(callsTo('PUT', '/api/user/notifications').map((call) => call.body)).toEqual([{ moneyReceived: false }]);
    expect(screen.getByRole('switch', { name: /Money received/ })).not.toBeChecked();
  });

  it("shows the server's refusal and keeps the switch as it was", async () => {
    mockApi({
      'GET /api/user/notifications': () => json(200, { data: settings() }),
      'PUT /api/user/notifications': () => json(503, { message: 'Service unavailable, try again shortly' }),
    });
    renderRoutes(accountRoutes, '/account/notifications');
    await userEvent.click(await screen.findByRole('switch', { name: /Interest paid/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable, try again shortly');
    expect(screen.getByRole('switch', { name: /Interest paid/ })).toBeChecked();
  });

  it('shows loading, then an error with Try again, then the list', async () => {
    let fail = true;
    mockApi({ 'GET /api/user/notifications': () => (fail ? json(500, { message: 'Something went wrong' }) : json(200, { data: settings() })) });
    renderRoutes(accountRoutes, '/account/notifications');
    expect((await screen.findAllByText('Loading your notification settings…')).length).toBeGreaterThan(0);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: /Money received/ })).toBeInTheDocument());
  });

  it('says so when there is nothing to set', async () => {
    mockApi({ 'GET /api/user/notifications': () => json(200, { data: [] }) });
    renderRoutes(accountRoutes, '/account/notifications');
    expect(await screen.findByText('There are no e-mail notices to set up yet')).toBeInTheDocument();
  });
});
