/**
 * `npm run bench:web`: Lighthouse (mobile and desktop profiles) on every public page and on the portal signed in,
 * against the real server with a fresh production build. Prints a Markdown table (with the machine's load average
 * beside each run), the goals it misses, and as its last line one JSON object. Exits 1 when a goal is missed.
 *
 *   npm run bench:web                                  # starts its own server (fresh database, Redis prefix)
 *   npm run bench:web -- --base-url http://127.0.0.1:3000   # measures a running server instead
 *   npm run bench:web -- --compare before=http://127.0.0.1:3100   # also measures another server, page by page
 *   npm run bench:web -- --runs 3 --only / --profile mobile
 *
 * With --runs N each page is measured N times and the run with the median performance score is kept.
 * docs/benchmarks.md ("Web") has the results and how to read them.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { benchPages, profiles, type Profile } from './benchPages';
import { missedGoals } from './benchGoals';
import { jsonSummary, markdownTable } from './benchReport';
import { newCustomerSession, startBenchServer, type BenchServer } from './benchServer';
import { measurePage, type PageMeasure, type Session } from './measurePage';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    compare: { type: 'string', multiple: true, default: [] },
    runs: { type: 'string', default: '1' },
    only: { type: 'string', multiple: true, default: [] },
    profile: { type: 'string', multiple: true, default: [] },
  },
});

const log = (line: string) => console.error(line);

interface Target {
  readonly name: string;
  readonly baseUrl: string;
  session?: Session;
}

/** Lighthouse now and then fails to record a trace on a loaded machine (NO_NAVSTART, NO_FCP): try again, twice. */
async function measureWithRetry(options: Parameters<typeof measurePage>[0]): Promise<PageMeasure> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await measurePage(options);
    } catch (error) {
      if (attempt >= 3) throw error;
      log(`  ${options.target} ${options.path} ${options.profile}: ${error instanceof Error ? error.message : String(error)}; trying again`);
    }
  }
}

function median(measures: PageMeasure[]): PageMeasure {
  const sorted = [...measures].sort((a, b) => a.performance - b.performance || a.lcpMs - b.lcpMs);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

async function main(): Promise<number> {
  const runs = Math.max(1, Number.parseInt(values.runs, 10) || 1);
  const chosenProfiles = profiles.filter((profile) => values.profile.length === 0 || values.profile.includes(profile));
  const pages = benchPages.filter((page) => values.only.length === 0 || values.only.includes(page.path));

  let server: BenchServer | undefined;
  const targets: Target[] = [];
  try {
    if (values['base-url']) targets.push({ name: 'current', baseUrl: values['base-url'].replace(/\/$/, '') });
    else {
      server = await startBenchServer(log);
      targets.push({ name: 'current', baseUrl: server.baseUrl });
    }
    for (const spec of values.compare) {
      const [name, url] = spec.includes('=') ? [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)] : ['compare', spec];
      targets.push({ name, baseUrl: url.replace(/\/$/, '') });
    }
    if (pages.some((page) => page.signedIn)) {
      for (const target of targets) target.session = await newCustomerSession(target.baseUrl);
    }

    log(`bench:web: ${pages.length} pages × ${chosenProfiles.length} profiles × ${runs} run(s) on ${targets.map((t) => `${t.name} (${t.baseUrl})`).join(', ')}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
    const measures: PageMeasure[] = [];
    for (const page of pages) {
      for (const profile of chosenProfiles as Profile[]) {
        // Targets alternate page by page, so a comparison sees the same machine load.
        for (const target of targets) {
          const attempts: PageMeasure[] = [];
          for (let run = 0; run < runs; run += 1) {
            attempts.push(
              await measureWithRetry({ target: target.name, baseUrl: target.baseUrl, path: page.path, profile, session: page.signedIn ? target.session : undefined }),
            );
          }
          const kept = median(attempts);
          measures.push(kept);
          log(`  ${target.name} ${page.path} ${profile}: perf ${kept.performance}, LCP ${Math.round(kept.lcpMs)} ms, TBT ${Math.round(kept.tbtMs)} ms, load ${kept.loadAverage.toFixed(2)}`);
        }
      }
    }

    const missed = measures.filter((measure) => measure.target === 'current').flatMap(missedGoals);
    const lowMarks = measures.filter((measure) => measure.failedAudits.length > 0).map((m) => `${m.target} ${m.path} ${m.profile}: ${m.failedAudits.join(', ')}`);
    console.log(markdownTable(measures));
    console.log('');
    console.log(`Load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} CPUs).`);
    if (lowMarks.length > 0) console.log(`Audits below full marks:\n${lowMarks.map((line) => `- ${line}`).join('\n')}`);
    console.log(missed.length === 0 ? 'Every goal met.' : `Goals missed:\n${missed.map((line) => `- ${line}`).join('\n')}`);
    console.log(jsonSummary(measures, missed, runs));
    return missed.length === 0 ? 0 : 1;
  } finally {
    await server?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
