import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../routes';

const user = sampleUser();
/** What the lookup finds; any other number (e.g. 1111111111) matches nothing. */
const names: Record<string, string> = { '9876543210': 'Alan Turing', '5555555555': 'Linus Pauling', [user.account.number]: 'Grace Hopper' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function api(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/auth/user': () => json(200, { data: user }),
    'GET /api/beneficiaries': ({ url }) => {
      const accountNumber = url.searchParams.get('accountNumber') ?? '';
      const name = names[accountNumber];
      return json(200, { data: name ? [{ _id: `b${accountNumber}`, name, accountNumber }] : [] });
    },
    'GET /api/transaction/complete': () => json(200, { data: [] }),
    'POST /api/transaction/transfer': () => json(201, { message: 'Transfer Successful', data: {} }),
    ...overrides,
  });
}

async function fillForm(values: { from?: string; amount?: string; bankName?: string; accountNumber?: string; routingNumber?: string; accountType?: string; description?: string }) {
  const type = userEvent.setup();
  if (values.from) await type.selectOptions(screen.getByLabelText('From account'), values.from);
  if (values.amount) await type.type(screen.getByLabelText('Amount (USD)'), values.amount);
  if (values.bankName) await type.type(screen.getByLabelText('Bank name'), values.bankName);
  if (values.accountNumber) await type.type(screen.getByLabelText('Account number'), values.accountNumber);
  if (values.routingNumber) await type.type(screen.getByLabelText('Routing number'), values.routingNumber);
  if (values.accountType) await type.selectOptions(screen.getByLabelText('Account type'), values.accountType);
  if (values.description) await type.type(screen.getByLabelText('Description'), values.description);
  return type;
}

/** Fills the form and waits until the lookup has filled the recipient in. */
async function fillWithRecipient(values: Parameters<typeof fillForm>[0] & { accountNumber: string }) {
  const type = await fillForm({ bankName: 'Summit Bank', ...values });
  await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue(names[values.accountNumber]));
  return type;
}

const toAlan = { amount: '25.50', bankName: 'Summit Bank', accountNumber: '9876543210', accountType: 'checking', description: 'Lunch' };

async function openTransfer() {
  const view = renderRoutes(accountRoutes, '/account/transfer', user);
  await screen.findByRole('heading', { name: 'Transfer money' });
  return view;
}

describe('transfer step 1: the checks', () => {
  it("says 'Please fill all fields' when amount, account type or account number is missing", async () => {
    const { calls } = api();
    await openTransfer();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill all fields');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it("says 'Please fill all fields' when the lookup found no recipient, and does not open the summary", async () => {
    api();
    await openTransfer();
    const type = await fillForm({ amount: '10', bankName: 'Other Bank', accountNumber: '1111111111', accountType: 'savings' });
    expect(await screen.findByText('Account not found')).toBeInTheDocument();
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill all fields');
    expect(screen.queryByRole('form', { name: 'Confirm transfer' })).not.toBeInTheDocument();
  });

  it("says 'Please fill all fields' when the lookup has not run (no bank name), then opens the summary once it found the recipient", async () => {
    api();
    await openTransfer();
    const type = await fillForm({ amount: '10', accountNumber: '9876543210', accountType: 'savings' });
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill all fields');
    await type.type(screen.getByLabelText('Bank name'), 'Summit Bank');
    await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing'));
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('form', { name: 'Confirm transfer' })).toBeInTheDocument();
  });

  it("says 'You cannot transfer to the same account' for the own number with the same account type", async () => {
    api();
    await openTransfer();
    const type = await fillWithRecipient({ from: 'savings', amount: '10', accountNumber: user.account.number, accountType: 'savings' });
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot transfer to the same account');
  });

  it('allows moving money from savings to the own checking account', async () => {
    api();
    await openTransfer();
    const type = await fillWithRecipient({ from: 'savings', amount: '10', accountNumber: user.account.number, accountType: 'checking' });
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('form', { name: 'Confirm transfer' })).toBeInTheDocument();
  });

  it("says 'You do not have enough balance' when the amount exceeds the balance of `from`", async () => {
    api();
    await openTransfer();
    const type = await fillWithRecipient({ from: 'checking', amount: '300', accountNumber: '5555555555', accountType: 'savings' });
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have enough balance');
  });

  it('checks the routing number check digit and the amount format', async () => {
    api();
    await openTransfer();
    const type = await fillWithRecipient({ amount: '10.123', accountNumber: '5555555555', accountType: 'savings' });
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Amount must have at most two decimals');
    await type.clear(screen.getByLabelText('Amount (USD)'));
    await type.type(screen.getByLabelText('Amount (USD)'), '10');
    await type.type(screen.getByLabelText('Routing number'), '1234');
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid routing number');
  });
});

describe('the recipient lookup', () => {
  it('shows a spinner, then fills the read-only recipient name', async () => {
    const answer = deferred<Response>();
    const { callsTo } = api({ 'GET /api/beneficiaries': () => answer.promise });
    await openTransfer();
    await fillForm({ bankName: 'Summit Bank', accountNumber: '9876543210' });
    expect(await screen.findByText('Looking up the account')).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET', '/api/beneficiaries')).toHaveLength(1));
    expect(callsTo('GET', '/api/beneficiaries')[0]?.url.searchParams.get('accountNumber')).toBe('9876543210');
    answer.resolve(json(200, { data: [{ _id: 'b1', name: 'Alan Turing', accountNumber: '9876543210' }] }));
    await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing'));
    expect(screen.getByLabelText('Recipient')).toHaveAttribute('readonly');
    expect(screen.queryByText('Looking up the account')).not.toBeInTheDocument();
  });

  it('looks up only once the number has more than 9 digits and a bank name is set, and only once when typing stops', async () => {
    const { callsTo } = api();
    await openTransfer();
    const type = await fillForm({ accountNumber: '9876543210' });
    await new Promise((done) => setTimeout(done, 600));
    expect(callsTo('GET', '/api/beneficiaries')).toHaveLength(0);
    await type.type(screen.getByLabelText('Bank name'), 'Summit Bank');
    await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing'));
    expect(callsTo('GET', '/api/beneficiaries')).toHaveLength(1);
  });

  it("shows 'Account not found' in the page, without an alert, when nothing matches", async () => {
    api();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await openTransfer();
    await fillForm({ bankName: 'Other Bank', accountNumber: '1111111111' });
    expect(await screen.findByText('Account not found')).toBeInTheDocument();
    expect(screen.getByLabelText('Recipient')).toHaveValue('');
    expect(alert).not.toHaveBeenCalled();
  });

  it("alerts the server's message once when the lookup fails (also shown in the form), and clears the recipient", async () => {
    let fail = false;
    api({
      'GET /api/beneficiaries': ({ url }) =>
        fail
          ? json(429, { message: 'Too many lookups, try again in a minute' })
          : json(200, { data: [{ _id: 'b1', name: 'Alan Turing', accountNumber: url.searchParams.get('accountNumber') }] }),
    });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await openTransfer();
    const type = await fillForm({ bankName: 'Summit Bank', accountNumber: '9876543210' });
    await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing'));
    fail = true;
    await type.type(screen.getByLabelText('Account number'), '1');
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Too many lookups, try again in a minute'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many lookups, try again in a minute');
    expect(screen.getByLabelText('Recipient')).toHaveValue('');
    // Typing elsewhere re-renders the form: the same failure is not alerted again.
    await type.type(screen.getByLabelText('Description'), 'Rent');
    expect(alert).toHaveBeenCalledTimes(1);
  });

  it("alerts 'An error occurred' when the lookup fails without a server message, and clears the recipient", async () => {
    api({ 'GET /api/beneficiaries': () => Promise.reject(new TypeError('Failed to fetch')) });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await openTransfer();
    await fillForm({ bankName: 'Summit Bank', accountNumber: '9876543210' });
    await waitFor(() => expect(alert).toHaveBeenCalledWith('An error occurred'));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText('Recipient')).toHaveValue('');
    expect(screen.queryByText('Account not found')).not.toBeInTheDocument();
  });
});

describe('transfer step 2: summary, pin and Complete', () => {
  async function toSummary() {
    const type = await fillForm(toAlan);
    await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing'));
    await type.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('form', { name: 'Confirm transfer' });
    return type;
  }

  it('shows the summary; Back returns to the form with every value kept', async () => {
    api();
    await openTransfer();
    const type = await toSummary();
    const summary = screen.getByRole('form', { name: 'Confirm transfer' });
    expect(within(summary).getByText('$25.50')).toBeInTheDocument();
    expect(within(summary).getByText('Alan Turing')).toBeInTheDocument();
    expect(within(summary).getByText('9876543210')).toBeInTheDocument();
    expect(within(summary).getByText('Lunch')).toBeInTheDocument();
    // No routing number (a transfer within the bank): the dash for none, in the text's font like the other rows'.
    const routing = within(summary).getByText('Routing number').nextElementSibling!;
    expect(routing).toHaveTextContent('—');
    expect(routing).not.toHaveClass('mono');
    expect(within(summary).getByText('9876543210')).toHaveClass('mono');
    await type.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('25.50');
    expect(screen.getByLabelText('Bank name')).toHaveValue('Summit Bank');
    expect(screen.getByLabelText('Account number')).toHaveValue('9876543210');
    expect(screen.getByLabelText('Account type')).toHaveValue('checking');
    expect(screen.getByLabelText('Description')).toHaveValue('Lunch');
    expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing');
  });

  it('wants a 6-digit pin (numeric keypad) before it sends anything', async () => {
    const { callsTo } = api();
    await openTransfer();
    const type = await toSummary();
    const pin = screen.getByLabelText('Payment pin');
    expect(pin).toHaveAttribute('inputmode', 'numeric');
    await type.type(pin, '12a3');
    expect(pin).toHaveValue('123');
    await type.click(screen.getByRole('button', { name: 'Complete' }));
    expect(await screen.findByText('Payment pin must be 6 digits')).toBeInTheDocument();
    expect(callsTo('POST', '/api/transaction/transfer')).toHaveLength(0);
  });

  it("with no pin set, Complete with the pin left empty asks the server, which says 'Please set your payment pin'", async () => {
    const noPin = sampleUser({ hasPaymentPin: false });
    const { callsTo } = api({
      'GET /api/auth/user': () => json(200, { data: noPin }),
      'POST /api/transaction/transfer': () => json(422, { message: 'Please set your payment pin' }),
    });
    renderRoutes(accountRoutes, '/account/transfer', noPin);
    await screen.findByRole('heading', { name: 'Transfer money' });
    const type = await toSummary();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await type.click(screen.getByRole('button', { name: 'Complete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please set your payment pin');
    expect(alert).toHaveBeenCalledWith('Please set your payment pin');
    expect(callsTo('POST', '/api/transaction/transfer')[0]?.body).toMatchObject({ paymentPin: '' });
    // A pin typed is still checked before anything is sent.
    await type.type(screen.getByLabelText('Payment pin'), '12');
    await type.click(screen.getByRole('button', { name: 'Complete' }));
    expect(await screen.findByText('Payment pin must be 6 digits')).toBeInTheDocument();
    expect(callsTo('POST', '/api/transaction/transfer')).toHaveLength(1);
  });

  it('posts once with an Idempotency-Key on a double click, then shows Transfer Successful on the transactions page', async () => {
    const answer = deferred<Response>();
    const { callsTo } = api({ 'POST /api/transaction/transfer': () => answer.promise });
    const { router } = await openTransfer();
    const type = await toSummary();
    await type.type(screen.getByLabelText('Payment pin'), '123456');
    await type.dblClick(screen.getByRole('button', { name: 'Complete' }));
    await type.click(screen.getByRole('button', { name: /Complete/ }));
    expect(callsTo('POST', '/api/transaction/transfer')).toHaveLength(1);
    const call = callsTo('POST', '/api/transaction/transfer')[0]!;
    expect(call.headers['Idempotency-Key']).toMatch(UUID);
    expect(call.body).toEqual({
      from: 'savings',
      amount: 25.5,
      accountNumber: '9876543210',
      bankName: 'Summit Bank',
      routingNumber: '',
      accountType: 'checking',
      to: 'Alan Turing',
      description: 'Lunch',
      paymentPin: '123456',
    });
    answer.resolve(json(201, { message: 'Transfer Successful', data: {} }));
    expect(await screen.findByText('Transfer Successful')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/transactions');
    expect(callsTo('POST', '/api/transaction/transfer')).toHaveLength(1);
  });

  it("alerts the server's refusal (also shown in the summary), and a new attempt gets a new key", async () => {
    let refusals = 0;
    const { callsTo } = api({
      'POST /api/transaction/transfer': () => {
        refusals += 1;
        return refusals === 1 ? json(422, { message: 'Incorrect payment pin' }) : json(201, { message: 'Transfer Successful', data: {} });
      },
    });
    await openTransfer();
    const type = await toSummary();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await type.type(screen.getByLabelText('Payment pin'), '000000');
    await type.click(screen.getByRole('button', { name: 'Complete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect payment pin');
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('Incorrect payment pin');
    await type.clear(screen.getByLabelText('Payment pin'));
    await type.type(screen.getByLabelText('Payment pin'), '123456');
    await type.click(screen.getByRole('button', { name: 'Complete' }));
    expect(await screen.findByText('Transfer Successful')).toBeInTheDocument();
    const [first, second] = callsTo('POST', '/api/transaction/transfer');
    expect(first?.headers['Idempotency-Key']).toMatch(UUID);
    expect(second?.headers['Idempotency-Key']).toMatch(UUID);
    expect(second?.headers['Idempotency-Key']).not.toBe(first?.headers['Idempotency-Key']);
  });

  it("alerts 'An error occurred' when the server gives no message, and keeps the key after a network failure", async () => {
    let attempt = 0;
    const { callsTo } = api({
      'POST /api/transaction/transfer': () => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return new Response('', { status: 500 });
      },
    });
    await openTransfer();
    const type = await toSummary();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await type.type(screen.getByLabelText('Payment pin'), '123456');
    await type.click(screen.getByRole('button', { name: 'Complete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred');
    expect(alert).toHaveBeenLastCalledWith('An error occurred');
    await type.click(screen.getByRole('button', { name: 'Complete' }));
    await waitFor(() => expect(callsTo('POST', '/api/transaction/transfer')).toHaveLength(2));
    await waitFor(() => expect(alert).toHaveBeenCalledTimes(2));
    expect(alert.mock.calls).toEqual([['An error occurred'], ['An error occurred']]);
    const [first, second] = callsTo('POST', '/api/transaction/transfer');
    expect(second?.headers['Idempotency-Key']).toBe(first?.headers['Idempotency-Key']);
  });
});

describe('entering the transfer page', () => {
  it('reloads the user, and goes to /signin when that fails', async () => {
    const { callsTo } = api({ 'GET /api/auth/user': () => json(500, { message: 'Something went wrong' }) });
    const { router } = renderRoutes(accountRoutes, '/account/transfer', user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(callsTo('GET', '/api/auth/user')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBeNull();
  });
});
