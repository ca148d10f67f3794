/**
 * Command-hook spawn cost (`npm run bench -- command-hook`):
 * (a) one no-op hook through `createCommandRunner()` vs `/bin/sh -c true` spawned directly;
 * (b) ten no-op hooks in parallel vs one;
 * (c) one no-op hook while this process holds ~1 GiB resident vs with a small heap — the
 *     small-heap figures are measured first, then the memory is allocated.
 * Informational lines (no limit) compare the direct runner, which forks this process.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { compare, record, type Measured } from './harness.ts';
import {
  createCommandRunner,
  createDirectRunner,
  type CommandRunner,
  type RunCommandOptions,
} from '../src/hook-kinds/command/runner/index.ts';

const payload = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/tmp/transcript.jsonl',
  cwd: tmpdir(),
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
});
const noOp: RunCommandOptions = {
  command: 'true',
  cwd: tmpdir(),
  input: payload,
  timeoutMs: 60_000,
};

async function runNoOp(runner: CommandRunner): Promise<void> {
  const result = await runner.run(noOp);
  if (result.exitCode !== 0) throw new Error(`no-op hook failed: ${JSON.stringify(result)}`);
}

/** The baseline: what any hook runner must at least do — spawn, write stdin, wait for exit. */
function spawnDirectly(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true'], { cwd: tmpdir(), stdio: 'pipe' });
    child.stdin.on('error', () => undefined);
    child.stdin.end(payload);
    child.once('error', reject);
    child.once('close', () => {
      resolve();
    });
  });
}

function summarize(samples: number[]): Measured {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p90: at(0.9), samples: sorted.length };
}

/** Times `rounds` runs of each runner, interleaved, in µs per run. */
async function sample(runners: readonly CommandRunner[], rounds: number): Promise<number[][]> {
  const samples = runners.map(() => [] as number[]);
  for (let round = 0; round < rounds + 5; round++) {
    for (const [index, runner] of runners.entries()) {
      const start = performance.now();
      await runNoOp(runner);
      if (round >= 5) samples[index]?.push((performance.now() - start) * 1000);
    }
  }
  return samples;
}

function recordRatio(name: string, candidate: number[], baseline: number[], limit?: number): void {
  const candidateSummary = summarize(candidate);
  const baselineSummary = summarize(baseline);
  record({
    name,
    candidate: candidateSummary,
    baseline: baselineSummary,
    ratio: candidateSummary.median / baselineSummary.median,
    unit: 'µs',
    ...(limit === undefined ? {} : { limit }),
  });
}

export default async function commandHookBench(): Promise<void> {
  const runner = createCommandRunner();
  const direct = createDirectRunner();
  try {
    await compare(
      '(a) no-op hook: createCommandRunner() vs spawn /bin/sh -c true',
      () => runNoOp(runner),
      spawnDirectly,
      {
        rounds: 300,
        warmupRounds: 20,
        limit: 1.1,
      },
    );
    await compare(
      '    (info) no-op hook: direct runner vs spawn /bin/sh -c true',
      () => runNoOp(direct),
      spawnDirectly,
      {
        rounds: 200,
        warmupRounds: 20,
      },
    );
    await compare(
      '(b) ten no-op hooks in parallel vs one (createCommandRunner())',
      () => Promise.all(Array.from({ length: 10 }, () => runNoOp(runner))),
      () => runNoOp(runner),
      { rounds: 100, warmupRounds: 10, limit: 2 },
    );

    await compare(
      '    (info) floor: ten /bin/sh -c true spawned directly in parallel vs one',
      () => Promise.all(Array.from({ length: 10 }, spawnDirectly)),
      spawnDirectly,
      { rounds: 60, warmupRounds: 5 },
    );

    // (c) small heap first, then ~1 GiB resident. Each runner is sampled on its own: a direct
    // fork of the large process would load the machine and blur the figure beside it.
    const [helperSmall = []] = await sample([runner], 150);
    const [directSmall = []] = await sample([direct], 40);
    const ballast: Buffer[] = [];
    for (let index = 0; index < 16; index++)
      ballast.push(Buffer.alloc(64 * 1024 * 1024, index + 1));
    const residentMiB = Math.round(process.memoryUsage().rss / 1024 / 1024);
    console.log(`    (${residentMiB} MiB resident with the ballast)`);
    const [helperLarge = []] = await sample([runner], 150);
    const [directLarge = []] = await sample([direct], 40);
    recordRatio(
      '(c) no-op hook at ~1 GiB resident vs small heap (createCommandRunner())',
      helperLarge,
      helperSmall,
      1.3,
    );
    recordRatio(
      '    (info) no-op hook at ~1 GiB resident vs small heap (direct runner)',
      directLarge,
      directSmall,
    );
    recordRatio(
      '    (info) at ~1 GiB resident: createCommandRunner() vs direct runner',
      helperLarge,
      directLarge,
    );
    // Keep the ballast alive until every large-heap figure is taken.
    if (ballast.reduce((sum, buffer) => sum + (buffer[0] ?? 0), 0) === 0)
      throw new Error('unreachable');
  } finally {
    await runner.close();
    await direct.close();
  }
}
