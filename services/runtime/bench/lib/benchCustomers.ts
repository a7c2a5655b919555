import { BENCH_PIN, call, expectStatus, mapLimit, signUpCustomer, type BenchCustomer } from './bankClient';

export interface CustomerSetUp {
  readonly baseUrl: string;
  readonly adminToken: string;
  /** Makes the e-mails unique to the run. */
  readonly runId: string;
  readonly count: number;
  /** Each customer's opening checking balance. */
  readonly checkingDollars: number;
  readonly log?: (message: string) => void;
}

/**
 * Signs up `count` customers over HTTP, as people would, then as an admin gives each an opening balance, marks them
 * verified and sets their payment pin (BENCH_PIN).
 */
export async function setUpCustomers(setUp: CustomerSetUp): Promise<BenchCustomer[]> {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const customers = await mapLimit(
    Array.from({ length: setUp.count }, (_, i) => i),
    8,
    (i) => signUpCustomer(setUp.baseUrl, i, setUp.runId),
  );
  setUp.log?.(`signed up ${customers.length} customers in ${seconds()} s`);
  await mapLimit(customers, 8, async (customer, i) => {
    await expectStatus(
      call(setUp.baseUrl, 'PUT', `/user/admin/account/${customer.id}`, {
        token: setUp.adminToken,
        body: { savings: 0, checking: setUp.checkingDollars, number: customer.accountNumber, reason: 'Bench opening deposit' },
      }),
      200,
      'set balances',
    );
    await expectStatus(
      call(setUp.baseUrl, 'PUT', `/user/admin/${customer.id}`, {
        token: setUp.adminToken,
        body: {
          firstName: `Bench${i}`,
          lastName: 'Customer',
          email: customer.email,
          phone: '555-0100',
          location: { address: `${i} Bench Street`, state: 'NY' },
          verificationStatus: 'verified',
          isBlocked: false,
          paymentPin: BENCH_PIN,
        },
      }),
      200,
      'set pin',
    );
  });
  setUp.log?.(`funded customers and set their pins; ${seconds()} s in all`);
  return customers;
}
