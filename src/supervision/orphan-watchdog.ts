/**
 * The orphan watchdog: a tiny Node process that outlives hookwire for one purpose, to kill the
 * long-lived processes hookwire started (stdio MCP servers) when hookwire dies in any way,
 * SIGKILL included. Started by `startWatchdog` (watchdog.ts) with `process.execPath`, detached:
 * it leads its own session, so a signal to hookwire's process group does not reach it.
 *
 * Usage: `node orphan-watchdog.ts SCOPE_PREFIX GRACE_MS`. Its stdin is a pipe from hookwire
 * carrying lines `+PGID` (a process group to kill if hookwire dies) and `-PGID` (that group
 * ended normally: forget it, so a reused id is never signalled). When stdin ends — hookwire
 * closed it after stopping its servers, or hookwire died and the kernel closed it — or the
 * watchdog gets SIGTERM/SIGINT/SIGHUP, it kills every process of the remembered groups and every
 * process whose `HOOKWIRE_HOOK_RUN` tag starts with SCOPE_PREFIX (and their descendants):
 * SIGTERM, then SIGKILL after GRACE_MS, then exits. It writes nothing.
 */
import { findContainedProcesses, signalProcesses, type ContainmentMatch } from './containment.ts';
import { signalProcessGroup } from './process-group.ts';

const scopePrefix = process.argv[2] ?? '';
const graceMs = Number(process.argv[3] ?? '2000');
const groups = new Set<number>();
let pending = '';
let stopping = false;

function onLine(line: string): void {
  const id = Number(line.slice(1));
  if (!Number.isSafeInteger(id) || id <= 1) return;
  if (line.startsWith('+')) groups.add(id);
  else if (line.startsWith('-')) groups.delete(id);
}

function signalAll(match: ContainmentMatch, signal: NodeJS.Signals): number {
  for (const groupId of match.groupIds) signalProcessGroup(groupId, signal);
  const found = findContainedProcesses(match);
  signalProcesses(found, signal);
  return found.length;
}

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  const match: ContainmentMatch = {
    groupIds: [...groups],
    ...(scopePrefix === '' ? {} : { tag: scopePrefix, prefix: true }),
  };
  if (findContainedProcesses(match).length > 0) {
    signalAll(match, 'SIGTERM');
    const deadline = performance.now() + graceMs;
    let left = 1;
    while (left > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      left = findContainedProcesses(match).length;
    }
    for (let round = 0; round < 2 && left > 0; round++) left = signalAll(match, 'SIGKILL');
  }
  process.exit(0);
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let newline = pending.indexOf('\n');
  while (newline !== -1) {
    onLine(pending.slice(0, newline));
    pending = pending.slice(newline + 1);
    newline = pending.indexOf('\n');
  }
});
process.stdin.on('end', () => void stop());
process.stdin.on('error', () => void stop());
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
  process.on(signal, () => void stop());
