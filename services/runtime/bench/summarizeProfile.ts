/**
 * `npx tsx services/runtime/bench/summarizeProfile.ts <file.cpuprofile>…`: where a V8 CPU profile (node --cpu-prof)
 * spent its time: self time by function and by package or source folder, the heaviest first.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function areaOf(url: string): string {
  if (!url) return '(native / idle / gc)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const match = /\/(domain|projector|web|services\/[^/]+)\/src\/(.*)$/.exec(url);
  return match ? `${match[1]}/${match[2]!.split('/').slice(0, -1).join('/') || '.'}` : url;
}

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = profile.endTime - profile.startTime;
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName || '(anonymous)';
    const where = node.callFrame.url ? `${node.callFrame.url.replace(/^.*\/(node_modules|work\/[^/]+\/[^/]+)\//, '')}:${node.callFrame.lineNumber + 1}` : '';
    const key = `${name} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const area = name === '(idle)' ? '(idle)' : name === '(garbage collector)' ? '(gc)' : areaOf(node.callFrame.url);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`)
      .join('\n');
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s profiled`);
  console.log(`by area:\n${top(byArea, 18)}`);
  console.log(`by function (self):\n${top(byFunction, 25)}`);
}
