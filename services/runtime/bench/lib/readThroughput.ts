import { call, type BenchCustomer } from './bankClient';

const PATH = '/transaction/complete?limit=20';

interface Listed {
  data?: { _id?: string; id?: string }[];
}

function idsOf(body: Listed): string {
  return JSON.stringify((body.data ?? []).map((row) => row._id ?? row.id));
}

/** Each customer's 20 newest transactions (their ids, newest first) as the bank lists them now. */
export async function expectedLists(baseUrl: string, customers: readonly BenchCustomer[]): Promise<Map<string, string>> {
  const lists = new Map<string, string>();
  for (const customer of customers) {
    const answer = await call<Listed>(baseUrl, 'GET', PATH, { token: customer.token });
    if (answer.status !== 200) throw new Error(`GET ${PATH} answered ${answer.status}`);
    const ids = idsOf(answer.body);
    if (ids === '[]') throw new Error(`GET ${PATH} listed nothing for a customer with transfers`);
    lists.set(customer.id, ids);
  }
  return lists;
}

/**
 * Customers' transaction lists (GET /transaction/complete?limit=20) read at `inFlight` for `ms`: reads per second.
 * Every answer is checked against `expected` (no writes run meanwhile, so each list must be exactly the one read
 * before): a wrong or missing row, or any status but 200, fails the measurement.
 */
export async function measureReads(baseUrl: string, customers: readonly BenchCustomer[], expected: ReadonlyMap<string, string>, inFlight: number, ms: number) {
  const until = Date.now() + ms;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: inFlight }, async (_, worker) => {
      for (let n = worker; Date.now() < until; n += inFlight) {
        const customer = customers[n % customers.length]!;
        const sent = performance.now();
        const answer = await call<Listed>(baseUrl, 'GET', PATH, { token: customer.token });
        latencies.push(performance.now() - sent);
        if (answer.status !== 200) throw new Error(`GET ${PATH} answered ${answer.status}`);
        if (idsOf(answer.body) !== expected.get(customer.id)) throw new Error(`GET ${PATH} listed other rows than expected for customer ${customer.id}`);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    reads: latencies.length,
    perSecond: latencies.length / (ms / 1000),
    p50Ms: latencies[Math.floor(latencies.length * 0.5)] ?? Number.NaN,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
  };
}
