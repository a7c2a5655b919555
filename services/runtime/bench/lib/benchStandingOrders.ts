import { BENCH_PIN, call, expectStatus, mapLimit, type BenchCustomer } from './bankClient';

interface OrderAnswer {
  readonly _id: string;
  readonly status: string;
  readonly nextDate: string | null;
  readonly occurrences: readonly { readonly date: string; readonly status: string; readonly transferId?: string; readonly reason?: string }[];
}

export interface BenchOrders {
  /** Orders whose first payment was today (paid when created), by payer. */
  readonly dueToday: readonly { readonly payer: BenchCustomer; readonly orderId: string }[];
  /** Orders that stay active for the runner to look at on every tick. */
  readonly waiting: number;
  /** The transfer ids of today's payments, as the orders list them. */
  readonly transferIds: readonly string[];
}

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/**
 * Creates `count` standing orders over HTTP between the bench's customers (each payer to the next customer): every
 * other one monthly from today (its first $1 payment made as it is created, through the transfer process), the rest
 * weekly from tomorrow (active, for the runner's ticks to look at during the load).
 */
export async function createStandingOrders(baseUrl: string, customers: readonly BenchCustomer[], count: number): Promise<BenchOrders> {
  const created = await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const payer = customers[i % customers.length]!;
      const payee = customers[(i + 1) % customers.length]!;
      const now = i % 2 === 0;
      const schedule = now
        ? { frequency: 'monthly', day: new Date().getUTCDate(), firstDate: today(), count: 12 }
        : { frequency: 'weekly', day: ((new Date(Date.now() + 86_400_000).getUTCDay() + 6) % 7) + 1, firstDate: tomorrow() };
      const body = await expectStatus(
        call<{ data: OrderAnswer }>(baseUrl, 'POST', '/standing-orders', {
          token: payer.token,
          body: {
            from: 'checking',
            amount: 1,
            accountNumber: payee.accountNumber,
            accountType: 'checking',
            description: `bench order ${i}`,
            paymentPin: BENCH_PIN,
            schedule,
          },
        }),
        201,
        `standing order ${i}`,
      );
      return { payer, order: body.data, now };
    },
  );
  const dueToday = created.filter((entry) => entry.now).map((entry) => ({ payer: entry.payer, orderId: entry.order._id }));
  const transferIds = created.flatMap((entry) => entry.order.occurrences.filter((o) => o.date === today() && o.transferId).map((o) => o.transferId!));
  return { dueToday, waiting: created.length - dueToday.length, transferIds };
}

/**
 * What the bench checks after the load: every order due today shows exactly one occurrence today, paid, and no
 * order shows one twice. Returns the problems found (none when all is well).
 */
export async function checkStandingOrders(baseUrl: string, orders: BenchOrders): Promise<string[]> {
  const problems: string[] = [];
  const payers = new Map(orders.dueToday.map((entry) => [entry.payer.id, entry.payer]));
  const expected = new Set(orders.dueToday.map((entry) => entry.orderId));
  for (const payer of payers.values()) {
    const listed = await expectStatus(call<{ data: OrderAnswer[] }>(baseUrl, 'GET', '/standing-orders', { token: payer.token }), 200, 'list standing orders');
    for (const order of listed.data) {
      const todays = order.occurrences.filter((o) => o.date === today());
      if (!expected.has(order._id)) {
        if (todays.length > 0) problems.push(`order ${order._id} (from tomorrow) has an occurrence today`);
        continue;
      }
      if (todays.length !== 1 || todays[0]!.status !== 'paid') problems.push(`order ${order._id}: today's occurrences ${JSON.stringify(todays)}`);
    }
  }
  return problems;
}
