import { randomUUID } from 'node:crypto';
import { customerDecider, standingOrderDecider, streams, type Schedule } from '@bank/domain';
import { resolveRecipient } from '@bank/transfers';
import type { TestCustomer, TransferFixture } from './transferFixture';
import { waitUntil } from './waitUntil';

export interface TestStandingOrder {
  readonly payer: TestCustomer;
  readonly payee: TestCustomer;
  readonly amountCents: number;
  readonly schedule: Schedule;
  /** The instant the order is created at (its `today` is that instant's UTC date). */
  readonly now: Date;
  readonly description?: string;
}

/**
 * Creates a standing order from `payer`'s checking to `payee`'s savings as the API's command would (the pin taken
 * as checked), then waits until rm.standing_orders lists it. Answers the order's id.
 */
export async function createTestStandingOrder(fx: TransferFixture, order: TestStandingOrder): Promise<string> {
  const orderId = randomUUID();
  const customer = await fx.commands.read(customerDecider, streams.customer(order.payer.userId), (state) => state);
  const recipient = await resolveRecipient({ commands: fx.commands, pool: fx.pool }, order.payee.accountNumber, undefined);
  await fx.commands.execute({
    decider: standingOrderDecider,
    streamId: streams.standingOrder(orderId),
    decide: (state) =>
      standingOrderDecider.decide(
        {
          type: 'CreateStandingOrder',
          orderId,
          payerId: order.payer.userId,
          customer,
          recipient,
          pinMatches: true,
          from: 'checking',
          amountCents: order.amountCents,
          accountNumber: order.payee.accountNumber,
          accountType: 'savings',
          description: order.description ?? 'Standing order test',
          schedule: order.schedule,
          today: order.now.toISOString().slice(0, 10),
          now: order.now.toISOString(),
        },
        state,
      ),
    context: { metadata: { actorId: order.payer.userId, actorRole: 'customer' } },
    commandType: 'CreateStandingOrder',
  });
  await waitUntil(async () => (await fx.pool.query('SELECT 1 FROM rm.standing_orders WHERE id = $1', [orderId])).rowCount === 1, { what: 'the order in rm.standing_orders' });
  return orderId;
}
