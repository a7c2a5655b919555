import type pg from 'pg';

/** Where the bank stands against "quiet": every committed event applied and every transfer finished. */
export interface QuietState {
  readonly quiet: boolean;
  /** What was read, for a message when the bank did not settle. */
  readonly text: string;
}

/**
 * One read of whether the bank is quiet (the benches' and the fault tests' `waitForQuiet`): the projector's checkpoint
 * and the transfer process's both at the log's head, and no transfer in rm.transfers unfinished.
 *
 * The head is the last committed event, not the last below the visibility fence the subscribers read behind: while
 * any transaction that began earlier is still open (a commit waiting for a synchronous standby, an ANALYZE, another
 * database's long transaction on a shared server), the events committed after it are above the fence, the projector
 * cannot have them yet, and a head taken below the fence would call the bank quiet without them.
 *
 * The transfer process's checkpoint is part of it because a transfer answered 201 while its credit was still to come
 * (an internal transfer answered pending) has no rm.transfers row until the process records its request: until then
 * only its debit is in the log, and "no transfer unfinished" would hold while its process was still retrying (after
 * a failover its steps back off for seconds). The process's checkpoint never passes a debit whose transfer is
 * unfinished (transferProcess.ts).
 */
export async function readQuietState(pool: pg.Pool): Promise<QuietState> {
  const { rows } = await pool.query<{ checkpoint: string; process: string; head: string; open: string }>(`
    SELECT coalesce((SELECT position FROM rm.checkpoint WHERE name = 'main'), '') AS checkpoint,
           coalesce((SELECT position FROM process.checkpoints WHERE name = 'transfers'), '') AS process,
           coalesce((SELECT lpad(transaction_id::text, 20, '0') || ':' || lpad(global_position::text, 20, '0') FROM eventstore.events
                      ORDER BY transaction_id DESC, global_position DESC LIMIT 1), '') AS head,
           (SELECT count(*) FROM rm.transfers WHERE status IN ('requested', 'debited', 'sent'))::text AS open`);
  const { checkpoint, process, head, open } = rows[0]!;
  return {
    quiet: checkpoint >= head && process >= head && open === '0',
    text: `projector at ${checkpoint || 'nothing'}, the transfer process at ${process || 'nothing'}, the log's head ${head || 'empty'}, ${open} transfers unfinished`,
  };
}
