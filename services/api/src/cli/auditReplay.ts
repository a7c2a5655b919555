/**
 * npm run audit:replay -- --user <id or e-mail> [--at ISO]
 *
 * Prints a customer's history from the event store (one line per event: time, actor, type, summary) and the
 * balances replayed by the domain as of --at (default now). Exit status: 0 printed, 1 no such customer or a
 * failure, 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { formatUsd } from '@bank/domain';
import { createEventStore } from '@bank/eventstore';
import { createPool, createProgressReporter, loadConfig } from '@bank/platform';
import { parseInstant } from '../http/queryParams';
import { replayAt, ReplayError } from '../features/audit/balancesAt';
import { runCli, type CliIo } from '../features/audit/cliSupport';
import { loadCustomerHistory } from '../features/audit/customerHistory';
import { standingOrdersOfPayer } from '../features/audit/customerStandingOrders';
import { presentEvents } from '../features/audit/presentEvents';
import { resolveUserId } from '../features/audit/resolveUser';

const usage = 'Usage: npm run audit:replay -- --user <id or e-mail> [--at <ISO-8601 date-time>]';

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export async function auditReplay(argv: readonly string[], io: CliIo): Promise<number> {
  let values: { user?: string; at?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { user: { type: 'string', short: 'u' }, at: { type: 'string' } }, strict: true }));
  } catch (error) {
    io.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if (!values.user) {
    io.error(usage);
    return 2;
  }
  const at = values.at === undefined ? new Date() : parseInstant(values.at);
  if (!at) {
    io.error(`--at must be an ISO-8601 date or date-time, e.g. 2025-03-01T12:00:00Z\n${usage}`);
    return 2;
  }

  const config = loadConfig();
  const pool = createPool(config.DATABASE_URL, 2);
  const store = await createEventStore(config, { pool });
  try {
    const userId = await resolveUserId(store, values.user);
    // A merchant's history names a transfer stream per payment: a bar (or plain lines in a log) while they are read.
    const progress = createProgressReporter({ print: (line) => io.error(line), ...(io.tty === undefined ? {} : { tty: io.tty }) });
    const history = userId
      ? await loadCustomerHistory(store, userId, {
          standingOrders: standingOrdersOfPayer(pool),
          onProgress: ({ done, total }) => total > 0 && progress.update({ phase: 'reading the transfer streams', done, total, unit: 'streams' }),
        })
      : undefined;
    progress.stop();
    if (!userId || !history) {
      io.error(`No customer ${values.user} in the event store.`);
      return 1;
    }
    const events = presentEvents(store, userId, history.events).filter((event) => Date.parse(event.time) <= at.getTime());
    const registered = events.find((event) => event.type === 'CustomerRegistered');
    io.out(
      registered
        ? `History of ${String(registered.data.firstName)} ${String(registered.data.lastName)} <${String(registered.data.email)}>, id ${userId}`
        : `History of customer ${userId}`,
    );
    io.out(`${events.length} events up to ${at.toISOString()} (streams: ${history.streams.join(', ')})`);
    io.out('');
    for (const event of events) {
      const actor = event.actor.id ? `${event.actor.role ?? '?'}:${event.actor.id}` : (event.actor.role ?? 'unknown');
      io.out(`${event.time}  ${pad(actor, 46)}  ${pad(event.type, 24)}  ${event.summary}${event.problem ? `  [UNREADABLE: ${event.problem}]` : ''}`);
    }
    const replay = replayAt(userId, history.events, at);
    io.out('');
    io.out(`Balances as of ${at.toISOString()} (replayed from ${replay.applied} events):`);
    io.out(`  savings   ${formatUsd(replay.balances.savingsCents)}`);
    io.out(`  checking  ${formatUsd(replay.balances.checkingCents)}`);
    return 0;
  } catch (error) {
    if (error instanceof ReplayError) {
      io.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
    await pool.end();
  }
}

runCli(auditReplay);
