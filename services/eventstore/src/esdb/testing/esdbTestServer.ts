import { randomUUID } from 'node:crypto';
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { sleep } from '@bank/platform';
import { dockerEngine } from '@bank/testkit';
import { toEsdbConnectionString } from '../esdbMapping';

/**
 * Where the EventStoreDB conformance suite runs (test support, not exported by the package): the server EVENTSTORE_URL
 * names; else, where a Docker engine answers, a container of the image docker-compose.yml runs (started by the
 * suite); else nowhere, with a message saying what to set or install.
 */

/** The image of docker-compose.yml's eventstore service; esdbTestServer.test.ts keeps the two equal. */
export const EVENTSTORE_TEST_IMAGE = 'eventstore/eventstore:24.10';

export type EsdbTestServer =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'container' }
  | { readonly kind: 'none'; readonly message: string };

export function esdbSkipMessage(reason: string): string {
  return (
    `EventStoreDB conformance suite skipped: EVENTSTORE_URL is not set and ${reason}. To run it, either start ` +
    `EventStoreDB (docker compose up -d eventstore) and set EVENTSTORE_URL='esdb://localhost:2113?tls=false', or ` +
    `install and start a Docker engine: the suite then starts ${EVENTSTORE_TEST_IMAGE} itself ` +
    `(npx vitest run services/eventstore/src/esdb).`
  );
}

export async function findEsdbTestServer(env: NodeJS.ProcessEnv = process.env): Promise<EsdbTestServer> {
  if (env.EVENTSTORE_URL) return { kind: 'url', url: env.EVENTSTORE_URL };
  const docker = await dockerEngine(env);
  return docker.available ? { kind: 'container' } : { kind: 'none', message: esdbSkipMessage(docker.reason) };
}

export interface StartedEsdb {
  /** A kurrentdb:// URL, so that the run also goes through the scheme rewrite. */
  readonly url: string;
  stop(): Promise<void>;
}

/** Waits until the server takes a write: /health/live answers before a single node has become leader. */
async function waitUntilWritable(url: string, timeoutMs: number): Promise<void> {
  const client = EventStoreDBClient.connectionString(toEsdbConnectionString(url));
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        await client.appendToStream(`ready-${randomUUID()}`, jsonEvent({ type: 'Ready', data: {} }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`EventStoreDB at ${url} took no write within ${timeoutMs} ms`, { cause: error });
        await sleep(250);
      }
    }
  } finally {
    await client.dispose();
  }
}

/**
 * Starts a single insecure in-memory EventStoreDB node (testcontainers removes it when the process exits, also if
 * stop() is never reached). Not @testcontainers/kurrentdb: its 12.x needs Node >= 22.22 (we support 20), and it
 * configures the server with KURRENTDB_* variables that the 24.10 image does not read (it would refuse to start
 * without certificates); @testcontainers/eventstoredb stopped at 10.28, on testcontainers 10.
 */
export async function startEsdbContainer(): Promise<StartedEsdb> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(EVENTSTORE_TEST_IMAGE)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_CLUSTER_SIZE: '1',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_MEM_DB: 'true',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((status) => status >= 200 && status < 300))
    .withStartupTimeout(180_000)
    .start();
  const url = `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  try {
    await waitUntilWritable(url, 60_000);
  } catch (error) {
    await container.stop();
    throw error;
  }
  return {
    url,
    async stop() {
      await container.stop();
    },
  };
}
