import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './processes.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/** Where code lives: a package, pim's own dist/ file, node's internals, or the engine. */
function owner(url: string): string {
  if (!url) return '(engine / native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  return url.includes('/dist/') ? `pim ${url.slice(url.indexOf('/dist/') + 1)}` : url;
}

function top(map: Map<string, number>, total: number, count: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => `${((hits / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
}

/** Self time of a V8 CPU profile (node --cpu-prof), by function and by package. */
export function summariseProfile(file: string, count = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (node.callFrame.functionName === '(idle)') idle += hits;
    if (hits === 0 || node.callFrame.functionName === '(idle)') continue;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? ` ${owner(url)}:${lineNumber + 1}` : '';
    const fn = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
    byOwner.set(owner(url), (byOwner.get(owner(url)) ?? 0) + hits);
  }
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  return [
    `CPU profile of pim: ${relative(REPO_ROOT, file)} (open it in Chrome DevTools)`,
    `${seconds.toFixed(1)} s, ${idle + total} samples, ${Math.round((idle / (idle + total)) * 100)} % idle; shares below are of the busy samples`,
    '',
    'self time by package / file:',
    ...top(byOwner, total, 15),
    '',
    'self time by function:',
    ...top(byFunction, total, count),
  ].join('\n');
}

/** The profiles node wrote into `dir` (one per process exit). */
export function profilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}
