import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The boundaries of docs/architecture.md, as the linter keeps them (eslint.boundaries.js): each import below is
 * linted as if it were written in the file named, and must be refused with the rule's message (or let through).
 */
const eslint = new ESLint({ cwd: import.meta.dirname });

async function mockRefusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { vi } from 'vitest';\n${code}\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('import-x/')).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the boundaries a linter keeps', () => {
  it('the domain imports nothing of ours', async () => {
    expect(await refusals('domain/src/account/x.ts', "import '@bank/eventstore';")).toContainEqual(expect.stringContaining('The domain imports nothing of ours'));
    expect(await refusals('domain/src/account/x.ts', "import '../../../services/platform/src/index';")).toContainEqual(expect.stringContaining('The domain imports nothing of ours'));
    expect(await refusals('domain/src/account/x.ts', "import '../money';")).toEqual([]);
  });

  it('the event store knows no domain', async () => {
    expect(await refusals('services/eventstore/src/x.ts', "import '@bank/domain';")).toContainEqual(expect.stringContaining('The event store knows no domain'));
    expect(await refusals('services/eventstore/src/x.ts', "import '@bank/platform';")).toEqual([]);
  });

  it('the API never imports the worker, except in its test harnesses', async () => {
    expect(await refusals('services/api/src/features/x.ts', "import '@bank/worker';")).toEqual([
      'import-x/no-restricted-paths: Unexpected path "@bank/worker" imported in restricted zone. The API never imports the worker; the composition root (services/runtime) runs both.',
    ]);
    expect(await refusals('services/api/src/features/transactions/testing/x.ts', "import '@bank/worker';")).toEqual([]);
  });

  it('product code never imports test kits, harnesses, benches or fault tools', async () => {
    const message = expect.stringContaining('Product code never imports test kits, harnesses, benches or fault tools');
    expect(await refusals('services/api/src/features/x.ts', "import '@bank/testkit';")).toContainEqual(message);
    expect(await refusals('services/api/src/features/x.ts', "import '../testing/testApp';")).toContainEqual(message);
    expect(await refusals('services/runtime/src/x.ts', "import '../faults/faultHarness';")).toContainEqual(message);
    expect(await refusals('services/api/src/features/x.test.ts', "import '../testing/testApp';")).toEqual([]);
  });

  it('the web app imports no server code, and its features one way', async () => {
    expect(await refusals('web/src/lib/x.ts', "import '../../../services/platform/src/index';")).toContainEqual(expect.stringContaining('The web app imports no server code'));
    expect(await refusals('web/src/lib/x.ts', "import '@bank/domain';")).toEqual([]);
    expect(await refusals('web/src/components/x.ts', "import '../features/account/routes';")).toContainEqual(expect.stringContaining('Shared web code (components, lib) imports no feature'));
    expect(await refusals('web/src/features/account/x.ts', "import '../../app/router';")).toContainEqual(expect.stringContaining('A web feature does not import the app shell'));
  });

  it('every package declares what it imports', async () => {
    expect(await refusals('services/commands/src/x.ts', "import '@bank/projector';")).toEqual([
      "import-x/no-extraneous-dependencies: '@bank/projector' should be listed in the project's dependencies. Run 'npm i @bank/projector' to add it",
    ]);
    expect(await refusals('services/commands/src/x.ts', "import '@bank/eventstore';")).toEqual([]);
  });

  it('a test file replaces a module only where it runs isolated (vitest.config.ts)', async () => {
    const message = expect.stringContaining('Test files share their modules within a worker');
    expect(await mockRefusals('services/api/src/features/x.int.test.ts', "vi.mock('./y', () => ({}));")).toEqual([message]);
    expect(await mockRefusals('web/src/features/x.test.tsx', "vi.doMock('./y', () => ({}));")).toEqual([message]);
    expect(await mockRefusals('domain/src/x.test.ts', "vi.spyOn(Math, 'random');")).toEqual([]);
    expect(await mockRefusals('services/api/src/features/audit/verifyEventLog.esdb.test.ts', "vi.mock('./y', () => ({}));")).toEqual([]);
  });
});
