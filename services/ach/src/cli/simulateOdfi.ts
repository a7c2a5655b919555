/**
 * `npm run ach:simulate-odfi -- --return <accountNumber> [--code R01]`: plays the bank's ODFI for demos and local
 * work. Reads the outbox (DATA_DIR/ach/outbox/, newest file first), takes the entries to that account number from
 * the newest file that has any, and writes a returns file for them into the inbox (DATA_DIR/ach/inbox/), which the
 * worker imports at its next look (ACH_POLL_EVERY_MS), or an admin uploads (POST /admin/ach/returns).
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isReturnReasonCode, describeReturnReason } from '@bank/domain';
import { writeReturnsFile } from '../odfi/returnsFile';

const { values } = parseArgs({
  options: { return: { type: 'string' }, code: { type: 'string', default: 'R01' }, 'data-dir': { type: 'string' } },
  strict: true,
});
const accountNumber = values.return?.trim();
const code = values.code ?? 'R01';
if (!accountNumber) {
  process.stderr.write('Usage: npm run ach:simulate-odfi -- --return <accountNumber> [--code R01]\n');
  process.exit(2);
}
if (!isReturnReasonCode(code)) {
  process.stderr.write(`--code: not a return reason code (R01–R85): ${code}\n`);
  process.exit(2);
}
const root = path.join(values['data-dir'] ?? process.env.DATA_DIR ?? '.data', 'ach');
const outbox = path.join(root, 'outbox');
const inbox = path.join(root, 'inbox');

const names = (await readdir(outbox).catch(() => [] as string[])).filter((name) => !name.startsWith('.') && !name.endsWith('.part'));
const files = await Promise.all(names.map(async (name) => ({ name, modified: (await stat(path.join(outbox, name))).mtimeMs })));
files.sort((a, b) => b.modified - a.modified || b.name.localeCompare(a.name));
for (const file of files) {
  const outbound = await readFile(path.join(outbox, file.name), 'utf8');
  const createdAt = new Date().toISOString();
  let result: ReturnType<typeof writeReturnsFile>;
  try {
    result = writeReturnsFile({ outbound, accountNumbers: [accountNumber], reasonCode: code, createdAt });
  } catch (error) {
    process.stderr.write(`Skipping ${file.name}: ${(error as Error).message}\n`);
    continue;
  }
  if (result.returned.length === 0) continue;
  await mkdir(inbox, { recursive: true });
  const name = `RETURNS-${createdAt.replace(/[-:.TZ]/g, '')}-${accountNumber}.txt`;
  await writeFile(path.join(inbox, `${name}.part`), result.text, { flag: 'wx' });
  await rename(path.join(inbox, `${name}.part`), path.join(inbox, name));
  process.stdout.write(
    `Returned ${result.returned.length} entr${result.returned.length === 1 ? 'y' : 'ies'} of ${file.name} (${describeReturnReason(code)}): ${result.returned.map((entry) => entry.traceNumber).join(', ')}\n` +
      `Written to ${path.join(inbox, name)}\n`,
  );
  process.exit(0);
}
process.stderr.write(`No outbound file in ${outbox} has an entry to account ${accountNumber}\n`);
process.exit(1);
