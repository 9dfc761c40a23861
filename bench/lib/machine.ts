import { spawnSync } from 'node:child_process';
import { cpus, release, totalmem, platform } from 'node:os';
import { REPO_ROOT } from './processes.js';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  platform: string;
  kernel: string;
  node: string;
  commit: string | undefined;
  /** True when the working tree had uncommitted changes to src/. */
  srcDirty: boolean | undefined;
}

function git(args: string[]): string | undefined {
  const result = spawnSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  const status = git(['status', '--porcelain', '--', 'src']);
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    platform: platform(),
    kernel: release(),
    node: process.version,
    commit: git(['rev-parse', '--short', 'HEAD']),
    srcDirty: status === undefined ? undefined : status.length > 0,
  };
}
