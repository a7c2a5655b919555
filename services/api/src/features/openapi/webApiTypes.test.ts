import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webApiTypesFile, webApiTypesSource } from './webApiTypes';

describe("the web app's generated API types", () => {
  it('are those of the current OpenAPI document (run `npm run api:types` when this fails)', async () => {
    const committed = readFileSync(webApiTypesFile, 'utf8');
    expect(committed).toContain('TrialBalance: {');
    expect(committed === (await webApiTypesSource()), 'web/src/lib/api/openApiTypes.ts is stale: run `npm run api:types`').toBe(true);
  });
});
