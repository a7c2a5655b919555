import { Worker } from 'node:worker_threads';

/**
 * When the projector's checkpoint passed each position: a LISTEN on its NOTIFY channel, in a worker thread of its
 * own so that the load driver's busy event loop does not delay the timestamps.
 */
export interface CheckpointTimeline {
  /** [epoch ms, formatted position] in arrival order. */
  entries(): Promise<Array<[number, string]>>;
  stop(): Promise<void>;
}

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const client = new pg.Client({ connectionString: workerData.url });
const entries = [];
client.on('notification', (message) => {
  const now = performance.timeOrigin + performance.now();
  const [name, position] = String(message.payload || '').split(' ');
  if (name === workerData.name && position) entries.push([now, position]);
});
client.on('error', () => {});
parentPort.on('message', async (message) => {
  if (message === 'entries') parentPort.postMessage({ entries });
  if (message === 'stop') { await client.end().catch(() => {}); parentPort.postMessage({ stopped: true }); }
});
client.connect().then(() => client.query('LISTEN ' + workerData.channel)).then(() => parentPort.postMessage({ ready: true }), (error) => parentPort.postMessage({ error: String(error) }));
`;

export async function startCheckpointTimeline(options: { url: string; channel?: string; name?: string }): Promise<CheckpointTimeline> {
  const { createRequire } = await import('node:module');
  const pgPath = createRequire(import.meta.url).resolve('pg');
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { url: options.url, channel: options.channel ?? 'rm_checkpoint', name: options.name ?? 'main', pgPath },
  });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (message.error) reject(new Error(String(message.error)));
        else if (key in message) {
          worker.off('message', onMessage);
          resolve(message[key] as T);
        }
      };
      worker.on('message', onMessage);
    });
  await next<boolean>('ready');
  return {
    async entries() {
      const answer = next<Array<[number, string]>>('entries');
      worker.postMessage('entries');
      return answer;
    },
    async stop() {
      const answer = next<boolean>('stopped');
      worker.postMessage('stop');
      await answer;
      await worker.terminate();
    },
  };
}

/** The first time the checkpoint reached `position` (formatted; string order is position order), or undefined. */
export function reachedAt(entries: ReadonlyArray<[number, string]>, position: string): number | undefined {
  let low = 0;
  let high = entries.length;
  // Checkpoints only move forward, so the entries are sorted by position.
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (entries[mid]![1] >= position) high = mid;
    else low = mid + 1;
  }
  return entries[low]?.[0];
}

/**
 * What makes the timeline's lags unusable: positions out of arrival order (reachedAt searches them as sorted), events
 * the checkpoint was never heard passing, or checkpoint times before the events' own transactions began.
 */
export function checkTimeline(entries: ReadonlyArray<[number, string]>, rawLags: readonly number[], events: number): string[] {
  const problems: string[] = [];
  const backwards = entries.findIndex((entry, i) => i > 0 && entry[1] < entries[i - 1]![1]);
  if (backwards > 0) problems.push(`the checkpoint notifications went backwards at ${backwards} of ${entries.length} (${entries[backwards - 1]![1]} then ${entries[backwards]![1]})`);
  // (A background job's event after the last notification heard may go unseen; more than 1 % means the timeline lost them.)
  if (events - rawLags.length > events / 100) problems.push(`${events - rawLags.length} of ${events} events never seen passed by the checkpoint (${entries.length} notifications heard)`);
  const early = rawLags.filter((lag) => lag < -5);
  if (early.length > rawLags.length / 100) {
    problems.push(`${early.length} of ${rawLags.length} events seen passed before their transaction began (by up to ${Math.round(-Math.min(...early))} ms): the timeline's clock or order is wrong`);
  }
  return problems;
}
