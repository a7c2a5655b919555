import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENTSTORE_TEST_IMAGE, esdbSkipMessage, findEsdbTestServer } from './esdbTestServer';

describe('the EventStoreDB test server', () => {
  it('is the image docker-compose.yml runs', () => {
    const compose = readFileSync(new URL('../../../../../docker-compose.yml', import.meta.url), 'utf8');
    const image = /^\s{2}eventstore:\s*\n\s+image:\s*(\S+)/m.exec(compose)?.[1];
    expect(image).toBe(EVENTSTORE_TEST_IMAGE);
  });

  it('is the server EVENTSTORE_URL names, when it is set', async () => {
    await expect(findEsdbTestServer({ EVENTSTORE_URL: 'esdb://esdb.test:2113?tls=false' })).resolves.toEqual({
      kind: 'url',
      url: 'esdb://esdb.test:2113?tls=false',
    });
  });

  it('says, when skipped, what to set or install to run the suite', () => {
    const message = esdbSkipMessage('no Docker engine was found');
    expect(message).toContain("EVENTSTORE_URL='esdb://localhost:2113?tls=false'");
    expect(message).toContain('docker compose up -d eventstore');
    expect(message).toContain(`install and start a Docker engine: the suite then starts ${EVENTSTORE_TEST_IMAGE} itself`);
  });
});
