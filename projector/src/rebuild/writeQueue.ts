/**
 * The bulk load's writes, batch by batch, on a few connections (lanes), with the batches of one group of projections
 * written in order and groups free of each other: a group whose batch takes long (a day's interest accrual, up to a
 * few seconds at a million customers) holds back its own later batches only, while the other lanes go on with theirs
 * and the folding thread goes on with the log, up to `ahead` batches past the oldest one not yet written (with a
 * barrier per batch instead, one long statement stopped every lane and the fold). Groups share no table
 * (independentGroups), so nothing read or written by one depends on another's progress; within a group, its batches
 * reach its tables in log order.
 *
 * A lane takes, among the groups whose previous batch is written, the one with the oldest batch waiting (the costliest
 * first when several are as old), so the backlog stays ordered by the log and a costly group never waits behind cheap
 * ones of later batches. The first failure stops every lane from taking more work; `drain` then waits for the jobs
 * running and throws it.
 */
export interface WriteJob<Group> {
  readonly group: Group;
  /** Writes the group's share of a batch on the lane's connection. */
  readonly run: (lane: number) => Promise<void>;
}

interface Queued<Group> extends WriteJob<Group> {
  readonly batch: number;
}

export class WriteQueue<Group> {
  /** Jobs waiting, per group, in batch order. */
  private readonly waiting = new Map<Group, Queued<Group>[]>();
  /** Groups one of whose jobs is running. */
  private readonly busy = new Set<Group>();
  /** Jobs not yet done, per batch (the batches enqueued and not written). */
  private readonly outstanding = new Map<number, number>();
  private readonly idleLanes: number[] = [];
  private readonly running = new Set<Promise<void>>();
  private batches = 0;
  /** The batches written so far, as a prefix of the log: every batch below this one is written. */
  private writtenUpTo = 0;
  private failure: { error: unknown } | undefined;
  private wakers: (() => void)[] = [];
  private closed = false;

  /**
   * `cost` orders groups whose waiting batches are as old: the costlier first (a moving average of its writes). A
   * batch whose jobs are all done, and all those before it, is reported to `onWritten` in order.
   */
  constructor(
    lanes: number,
    private readonly cost: (group: Group) => number,
    private readonly onWritten: (batch: number) => void = () => undefined,
  ) {
    for (let lane = 0; lane < lanes; lane += 1) this.idleLanes.push(lane);
  }

  /** Batches enqueued so far: the number the next one gets. */
  get enqueued(): number {
    return this.batches;
  }

  /** Batches enqueued and not all written. */
  get backlog(): number {
    return this.batches - this.writtenUpTo;
  }

  /** Adds a batch's jobs (one per group with changes); returns its number (0, 1, …). */
  enqueue(jobs: readonly WriteJob<Group>[]): number {
    const batch = this.batches;
    this.batches += 1;
    this.outstanding.set(batch, jobs.length);
    for (const job of jobs) {
      const queue = this.waiting.get(job.group);
      if (queue) queue.push({ ...job, batch });
      else this.waiting.set(job.group, [{ ...job, batch }]);
    }
    this.settle();
    this.dispatch();
    return batch;
  }

  /** Resolves once at most `backlog` batches are left unwritten; rejects with the first failure. */
  async waitForBacklog(backlog: number): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.backlog <= backlog) return;
      await new Promise<void>((resolve) => this.wakers.push(resolve));
    }
  }

  /** Waits for every batch enqueued to be written (and for the jobs running, after a failure); throws the failure. */
  async drain(): Promise<void> {
    try {
      await this.waitForBacklog(0);
    } finally {
      if (this.failure) await this.close();
    }
  }

  /**
   * Starts no more jobs, and waits for those running to end whatever their outcome (before their connections go back
   * to the pool): for a load that stops, on its own failure or a lane's.
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Starts jobs on idle lanes while some group has one it may run. */
  private dispatch(): void {
    while (!this.failure && !this.closed && this.idleLanes.length > 0) {
      const job = this.next();
      if (!job) return;
      const lane = this.idleLanes.shift()!;
      this.busy.add(job.group);
      const running = this.start(job, lane);
      this.running.add(running);
      void running.finally(() => this.running.delete(running));
    }
  }

  private async start(job: Queued<Group>, lane: number): Promise<void> {
    try {
      await job.run(lane);
      this.outstanding.set(job.batch, this.outstanding.get(job.batch)! - 1);
    } catch (error) {
      this.failure ??= { error };
    } finally {
      this.busy.delete(job.group);
      this.idleLanes.push(lane);
      this.settle();
      this.dispatch();
      this.wake();
    }
  }

  /** The job to run next: the oldest batch's among groups not running one, the costliest group on a tie. */
  private next(): Queued<Group> | undefined {
    let best: Queued<Group> | undefined;
    let bestCost = 0;
    for (const [group, queue] of this.waiting) {
      if (this.busy.has(group)) continue;
      const head = queue[0]!;
      const cost = this.cost(group);
      if (!best || head.batch < best.batch || (head.batch === best.batch && cost > bestCost)) {
        best = head;
        bestCost = cost;
      }
    }
    if (!best) return undefined;
    const queue = this.waiting.get(best.group)!;
    queue.shift();
    if (queue.length === 0) this.waiting.delete(best.group);
    return best;
  }

  /** Moves the written prefix past the batches all of whose jobs are done, reporting each. */
  private settle(): void {
    while (this.writtenUpTo < this.batches && this.outstanding.get(this.writtenUpTo) === 0) {
      this.outstanding.delete(this.writtenUpTo);
      this.onWritten(this.writtenUpTo);
      this.writtenUpTo += 1;
    }
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }
}
