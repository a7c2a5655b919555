import {
  accountDecider,
  customerDecider,
  isDomainError,
  statementPeriod,
  type AccountCommand,
  type AccountState,
  type CustomerState,
  type StatementPeriod,
  type StoredEvent,
} from '@bank/domain';
import { foldStatement, holderFromEvents, type StatementSource } from './statementSource';
import { seededRandom } from '@bank/platform';

const SPENDING = ['Groceries, Fresh Market', 'Coffee, Summit Roasters', 'Fuel, Mile High Gas', 'Pharmacy', 'Restaurant, Larimer Kitchen', 'Bookshop', 'Streaming service', 'Phone bill', 'Gym membership', 'Hardware store'];

export interface ExampleHistory {
  readonly userId: string;
  readonly customerEvents: StoredEvent[];
  readonly accountEvents: StoredEvent[];
}

/**
 * A generated customer's history through the domain's deciders, stamped like the command handler stamps events:
 * a salary and rent each month, spending in between, one move to savings; from `start` for `months` months.
 */
export function exampleHistory(start: Date, months: number, seed = 21): ExampleHistory {
  const next = seededRandom(seed);
  let ids = 0;
  const id = () => `00000000-0000-4000-8000-${String((ids += 1)).padStart(12, '0')}`;
  const userId = id();
  const customerEvents: StoredEvent[] = [];
  const accountEvents: StoredEvent[] = [];
  const registeredAt = new Date(start.getTime() - 86_400_000).toISOString();
  let customer: CustomerState = customerDecider.initialState;
  for (const event of customerDecider.decide(
    {
      type: 'RegisterCustomer',
      userId,
      firstName: 'Jordan',
      lastName: 'Example',
      email: 'jordan.example@example.com',
      phone: '555-0142',
      address: '48 Aspen Street, Boulder',
      state: 'CO',
      passwordHash: '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ',
      accountNumber: '7012345678',
      role: 'customer',
      now: registeredAt,
    },
    customer,
  )) {
    customer = customerDecider.evolve(customer, event);
    customerEvents.push({ ...event, createdAt: registeredAt });
  }

  let account: AccountState = accountDecider.initialState;
  const run = (command: AccountCommand) => {
    try {
      for (const event of accountDecider.decide(command, account)) {
        account = accountDecider.evolve(account, event);
        accountEvents.push({ ...event, createdAt: 'now' in command ? command.now : registeredAt });
      }
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
  };
  run({ type: 'OpenAccount', userId, accountNumber: '7012345678', now: registeredAt });

  const at = (month: number, day: number, hour: number, minute = 0) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + month, day, hour, minute)).toISOString();
  /** The commands of the period, run in time order once planned. */
  const planned: AccountCommand[][] = [];
  const transferOut = (now: string, account: 'checking' | 'savings', amountCents: number, description: string) => {
    const transactionId = id();
    planned.push([
      { type: 'DebitForTransfer', transactionId, transferId: id(), account, amountCents, description, now },
      { type: 'SetTransactionStatus', transactionId, status: 'completed', now },
    ]);
  };
  const transferIn = (now: string, account: 'checking' | 'savings', amountCents: number, description: string) =>
    planned.push([{ type: 'CreditForTransfer', transactionId: id(), transferId: id(), account, amountCents, description, now }]);

  for (let month = 0; month < months; month += 1) {
    transferIn(at(month, 1, 9), 'checking', 412_500, 'Salary, Acme Outfitters');
    transferOut(at(month, 2, 10), 'checking', 165_000, 'Rent, Aspen Street Apartments');
    transferOut(at(month, 5, 8), 'checking', 12_480, 'Electricity and gas');
    const spending = 30 + Math.floor(next() * 12);
    for (let n = 0; n < spending; n += 1) {
      const day = 3 + Math.floor(next() * 25);
      transferOut(at(month, day, 8 + Math.floor(next() * 12), Math.floor(next() * 60)), 'checking', 350 + Math.floor(next() * 9_000), SPENDING[Math.floor(next() * SPENDING.length)]!);
    }
    transferOut(at(month, 15, 12), 'checking', 50_000, 'To savings');
    transferIn(at(month, 15, 12, 1), 'savings', 50_000, 'From checking');
    if (month % 2 === 1) transferIn(at(month, 20, 16), 'checking', 4_250, 'Refund, Bookshop');
  }
  const timeOf = (commands: AccountCommand[]) => ('now' in commands[0]! ? commands[0].now : '');
  for (const commands of planned.sort((a, b) => timeOf(a).localeCompare(timeOf(b)))) commands.forEach(run);
  return { userId, customerEvents, accountEvents };
}

/** The statement of an example history, as the API would produce it from the store. */
export function exampleStatement(history: ExampleHistory, account: 'checking' | 'savings', from: string, to: string): StatementSource {
  const period = statementPeriod(from, to) as StatementPeriod;
  const holder = holderFromEvents(history.userId, history.customerEvents);
  if (!holder) throw new Error('The example customer is not registered');
  async function* pages() {
    for (let index = 0; index < history.accountEvents.length; index += 100) yield history.accountEvents.slice(index, index + 100);
  }
  return { holder, account, period, items: foldStatement(account, period, pages()) };
}
