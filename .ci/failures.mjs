#!/usr/bin/env node
// Prints what failed in one lane of `npm test`, from that lane's vitest JSON report: each failed file and test with
// the first lines of its error. `.ci/test` calls it after both lanes have ended, so the failures are in the last lines
// of the output, where a CI log cut to its tail still shows them.
//
// When no test failed yet vitest did (an unhandled error, which the JSON report does not hold), it prints the
// "Unhandled Errors" part of the lane's vitest output instead, when that output was kept.
//
// Usage: node .ci/failures.mjs <lane name> <report.json> [<lane's vitest output>]
import { existsSync, readFileSync } from 'node:fs';

const MESSAGE_LINES = 6;
const MAX_TESTS = 20;
const MAX_UNHANDLED_LINES = 60;

const [lane, reportPath, outputPath] = process.argv.slice(2);
if (!lane || !reportPath) {
  console.error('usage: node .ci/failures.mjs <lane name> <report.json> [<vitest output>]');
  process.exit(2);
}

if (!existsSync(reportPath)) {
  console.log(`== ${lane} lane: vitest wrote no report (${reportPath}); it stopped before the end, its output is above`);
  process.exit(0);
}

let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (error) {
  console.log(`== ${lane} lane: the report ${reportPath} cannot be read (${error.message}); the output is above`);
  process.exit(0);
}

// The terminal's colour codes, ESC [ … m, dropped from the messages.
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLines = (text) =>
  String(text ?? '')
    .replace(ansi, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, MESSAGE_LINES);

/**
 * The "Unhandled Errors" part of a vitest output: from its heading to the rule that closes it, without the stack
 * frames inside node_modules, at most MAX_UNHANDLED_LINES lines (none when the output was not kept or has no such part).
 */
function unhandledErrors(path) {
  if (!path || !existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').replace(ansi, '').split('\n').map((line) => line.trimEnd());
  const start = lines.findIndex((line) => /⎯ Unhandled Errors? ⎯/.test(line));
  if (start < 0) return [];
  const part = [];
  for (const line of lines.slice(start)) {
    if (/Test Files /.test(line)) break;
    if (line.trim() === '' || /node_modules\//.test(line)) continue;
    part.push(line);
    if (part.length === MAX_UNHANDLED_LINES) break;
  }
  return part;
}

const files = (report.testResults ?? []).filter(
  (file) => file.status === 'failed' || (file.assertionResults ?? []).some((test) => test.status === 'failed'),
);
const failedTests = files.reduce(
  (sum, file) => sum + (file.assertionResults ?? []).filter((test) => test.status === 'failed').length,
  0,
);

if (files.length === 0) {
  // An unhandled error fails the run with every test passed, and the report may still say success.
  const unhandled = unhandledErrors(outputPath);
  if (unhandled.length > 0) {
    console.log(`== ${lane} lane: no test failed, but vitest caught errors outside the tests:`);
    for (const line of unhandled) console.log(`  ${line}`);
    process.exit(0);
  }
  const verdict = report.success === false ? 'no test failed, yet vitest reported failure (an unhandled error or a' +
    ' failed hook: look for "Unhandled Errors" above)' : 'nothing failed';
  console.log(`== ${lane} lane: ${verdict}`);
  process.exit(0);
}

console.log(`== ${lane} lane: ${failedTests} failed test(s) in ${files.length} file(s)`);
let shown = 0;
for (const file of files) {
  console.log(`  ${file.name.replace(`${process.cwd()}/`, '')}`);
  const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
  if (failed.length === 0) {
    // The file failed outside any test: an import error, a failed beforeAll, a timeout of a hook.
    for (const line of firstLines(file.message)) console.log(`      ${line}`);
  }
  for (const test of failed) {
    if (shown === MAX_TESTS) {
      console.log(`    … and more (${failedTests - shown} not shown)`);
      process.exit(0);
    }
    shown += 1;
    console.log(`    × ${test.fullName ?? test.title}`);
    for (const line of firstLines((test.failureMessages ?? [])[0])) console.log(`      ${line}`);
  }
}
