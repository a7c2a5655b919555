import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ID, json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const path = `/admin/users/account/${CUSTOMER_ID}`;

function api(answer: () => Response = () => json(200, { message: 'Account updated successfully', data: sampleUser() })) {
  return mockApi({
    [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: sampleUser() }),
    [`PUT /api/user/admin/account/${CUSTOMER_ID}`]: answer,
  });
}

describe('/admin/users/account/:id', () => {
  it.each(['Account number', 'Savings balance (USD)', 'Checking balance (USD)'])("says 'All fields are required' when %s is empty", async (label) => {
    const { callsTo } = api();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await userEvent.clear(await screen.findByLabelText(label));
    await userEvent.click(screen.getByRole('button', { name: 'Save balances' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required');
    expect(callsTo('PUT', `/api/user/admin/account/${CUSTOMER_ID}`)).toHaveLength(0);
  });

  it('wants a 10-digit account number', async () => {
    api();
    const type = userEvent.setup();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await type.clear(await screen.findByLabelText('Account number'));
    await type.type(screen.getByLabelText('Account number'), '12345');
    await type.click(screen.getByRole('button', { name: 'Save balances' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Account number must be 10 digits');
  });

  it('sends number, balances (as dollars) and the reason, and shows the server message', async () => {
    const { callsTo } = api();
    const type = userEvent.setup();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await type.clear(await screen.findByLabelText('Savings balance (USD)'));
    await type.type(screen.getByLabelText('Savings balance (USD)'), '5000');
    await type.clear(screen.getByLabelText('Checking balance (USD)'));
    await type.type(screen.getByLabelText('Checking balance (USD)'), '120.75');
    const reason = screen.getByLabelText('Reason (optional)');
    expect(reason).toHaveAccessibleDescription(/The other side of this edit is booked to Staff balance adjustments\./);
    expect(reason).toHaveAttribute('maxLength', '500');
    await type.type(reason, 'Opening deposit');
    expect(reason).toHaveAccessibleDescription(/15 \/ 500 characters/);
    await type.click(screen.getByRole('button', { name: 'Save balances' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Account updated successfully');
    expect(callsTo('PUT', `/api/user/admin/account/${CUSTOMER_ID}`)[0]?.body).toEqual({
      number: '1234567890',
      savings: 5000,
      checking: 120.75,
      reason: 'Opening deposit',
    });
  });

  it("shows the server's refusal", async () => {
    api(() => json(409, { message: 'Account number already in use' }));
    renderRoutes(adminRoutes, path, sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Save balances' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Account number already in use');
  });
});
