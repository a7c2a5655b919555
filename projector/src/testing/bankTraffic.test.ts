import { balanceOf, evolveAccount, initialAccountState, isAccountEvent, parseEvent, type AccountState } from '@bank/domain';
import { describe, expect, it } from 'vitest';
import { BankTraffic, type TrafficEvent, type TrafficKind } from './bankTraffic';
import { generateWorkload } from './randomWorkload';

describe('the bank traffic of the projector benchmark', () => {
  it('appends only events the domain accepts, each stream in order, with balances its replay agrees with', async () => {
    const history = generateWorkload({ events: 3_000, seed: 4 });
    const { users, adminId } = BankTraffic.usersOf(history);
    const traffic = new BankTraffic({ users, adminId, seed: 11 });
    const log: { stream: string; event: TrafficEvent }[] = [];
    const inFlight = new Set<string>();
    const append = async (stream: string, events: readonly TrafficEvent[]) => {
      expect(inFlight.has(stream), `two appends to ${stream} at once`).toBe(false);
      inFlight.add(stream);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      for (const event of events) log.push({ stream, event });
      inFlight.delete(stream);
    };
    const kinds = new Map<TrafficKind, number>();
    const operations = Array.from({ length: 3_000 }, () => {
      const started = traffic.start(append);
      kinds.set(started.kind, (kinds.get(started.kind) ?? 0) + started.events);
      return started.done;
    });
    await Promise.all(operations);

    const states = new Map<string, AccountState>();
    for (const { stream, event } of [...history.map((item) => ({ stream: item.stream, event: item.event })), ...log]) {
      const parsed = parseEvent(event.type, event.data);
      if (!stream.startsWith('account-') || !isAccountEvent(parsed)) continue;
      const next = evolveAccount(states.get(stream) ?? initialAccountState, parsed);
      if ('balanceAfterCents' in parsed.data) expect(balanceOf(next, parsed.data.account), `${stream} ${parsed.type}`).toBe(parsed.data.balanceAfterCents);
      states.set(stream, next);
    }
    for (const user of users) {
      const state = states.get(`account-${user.id}`)!;
      expect(balanceOf(state, 'savings')).toBe(user.balances.savings);
      expect(balanceOf(state, 'checking')).toBe(user.balances.checking);
    }
    const total = [...kinds.values()].reduce((sum, n) => sum + n, 0);
    expect(total).toBe(log.length);
    expect(kinds.get('transfer')! / total).toBeGreaterThan(0.7);
    expect(kinds.get('sign-up')).toBeGreaterThan(0);
    expect(kinds.get('staff')).toBeGreaterThan(0);
    expect(traffic.customers).toBeGreaterThan(users.length);
  });
});
