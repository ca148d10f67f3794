/**
 * Durable sessions on Restate (issue 33), `node bench/run.ts durable`. Needs root (restate-server
 * runs in a mount namespace, see test/support/restate-cluster.ts); says why and measures nothing
 * otherwise.
 *
 * 1. A durable step vs the same local step, in one run: the loop bench's short tool step (scripted
 *    model, one `echo` tool call, one no-op PreToolUse command hook, two model calls 1 ms each)
 *    run locally (`shortToolStep`, a session opened and closed per step) vs the same agent served
 *    by the session object `hookwire-session` from an HTTP/2 endpoint in this process, registered
 *    with a loopback restate-server, each step one `run` through the ingress on a fresh session
 *    (every model call, tool call and hook fire journaled). Medians and the ratio; bound ≤ 3×.
 * 2. Sessions completed per minute with one `hookwire worker` vs two (built dist/bin/hookwire.js,
 *    the durable test fixture: a loopback model answering from the request, three shell steps
 *    per session), `CONCURRENT` sessions in flight at a time; printed with the machine's core
 *    count (`os.availableParallelism()`) and load average.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, record } from './harness.ts';
import { load, timing } from './built.ts';
import { SHORT_TOOL_STEP, echoTools, noOpCommandHook, shortToolStep } from './tool-step-fixture.ts';
import type * as RestateModule from '../src/restate.ts';
import type * as TestingModule from '../src/testing.ts';
import {
  journalOf,
  restateUnavailable,
  serveInProcess,
  startRestateServer,
} from '../test/support/restate-cluster.ts';
import { startDurableFixture } from '../test/support/durable-fixture.ts';

// The SDK reads its log level once, when loaded: it logs each invocation at INFO otherwise (two
// lines per step, which would bury the figures). `hookwire worker` runs at that default INFO;
// with RESTATE_LOGGING=INFO the step measured the same within the noise (decision 0036).
process.env['RESTATE_LOGGING'] ??= 'WARN';
const { sessionObject } = await load<typeof RestateModule>('restate');
const { createScriptedModel } = await load<typeof TestingModule>('testing');

/** Steps timed per figure in part 1. */
const ROUNDS = Number(process.env['HOOKWIRE_BENCH_ROUNDS'] ?? 40);
/** Sessions per throughput measure, and how many run at once. */
const SESSIONS = 24;
const CONCURRENT = 6;

async function durableVsLocal(root: string): Promise<void> {
  const cwd = join(root, 'step');
  const { hooks, runner } = noOpCommandHook(cwd);
  const object = sessionObject({
    agent: () => ({ model: createScriptedModel(SHORT_TOOL_STEP), tools: echoTools, hooks, cwd }),
  });
  const server = await startRestateServer(join(root, 'restate-step'));
  const endpoint = await serveInProcess(server.admin, [object]);
  try {
    let sessions = 0;
    const durableStep = async (): Promise<void> => {
      const response = await fetch(
        `${server.ingress}/hookwire-session/bench-${process.pid}-${++sessions}/run`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: 'go' }),
        },
      );
      const result = (await response.json()) as { status?: string };
      if (result.status !== 'completed')
        throw new Error(`durable step ended ${JSON.stringify(result)}`);
    };
    await compare(
      'durable step (session object on loopback Restate: 2 model calls, 1 tool call, 1 no-op command hook, all journaled) vs the same local step',
      durableStep,
      shortToolStep(cwd, { hooks }),
      { rounds: ROUNDS, warmupRounds: 5, unit: 'ms', limit: 3 },
    );
    // What a step costs in round trips: each ctx.run entry is persisted before Restate answers.
    const journal = await journalOf(server.admin, `hookwire-session/bench-${process.pid}-1/run`);
    const entries = journal.filter((entry) => entry.type === 'Command: Run');
    console.log(
      `  journal of one durable step: ${entries.length} ctx.run entries (${entries.map((entry) => entry.name).join(', ')}) of ${journal.length} journal entries`,
    );
  } finally {
    await server.stop();
    await new Promise((done) => endpoint.close(done));
    await runner.close();
  }
}

/** Sessions per minute through `workers` workers. */
async function throughput(root: string): Promise<void> {
  const fixture = await startDurableFixture(join(root, 'throughput'), { sleep: 0 });
  let sessions = 0;
  const measure = async (): Promise<number> => {
    const started = performance.now();
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < SESSIONS) {
        next++;
        const id = `t${++sessions}`;
        const result = (await fixture.call(id, 'run', { prompt: `session ${id} steps 3` })) as {
          status?: string;
        };
        if (result.status !== 'completed') throw new Error(`${id} ended ${String(result.status)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT }, lane));
    return (SESSIONS * 60_000) / (performance.now() - started);
  };
  try {
    const [first, second] = fixture.workers;
    if (first === undefined || second === undefined) throw new Error('two workers expected');
    await measure(); // warm-up: both workers' JIT, Restate's partitions
    fixture.balancer.detach(second.port);
    const one = await measure();
    fixture.balancer.add(second.port);
    fixture.balancer.detach(first.port);
    fixture.balancer.add(first.port);
    const two = await measure();
    const load = loadavg().map((value) => value.toFixed(2));
    record({
      name: `sessions completed per minute (${SESSIONS} sessions of 3 shell steps, ${CONCURRENT} at a time): two workers vs one; ${availableParallelism()} cores, load average ${load.join(' ')}`,
      candidate: { median: two, p90: two, samples: SESSIONS },
      baseline: { median: one, p90: one, samples: SESSIONS },
      ratio: two / one,
      unit: 'ms',
    });
    console.log(
      `  (figures in sessions per minute, not ms: one worker ${one.toFixed(1)}, two ${two.toFixed(1)})`,
    );
  } finally {
    await fixture.stop();
  }
}

export default async function durableBench(): Promise<void> {
  const unavailable = restateUnavailable();
  if (unavailable !== undefined) {
    console.log(`durable bench skipped: ${unavailable}`);
    return;
  }
  console.log(
    `${timing()}; load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${availableParallelism()} cores`,
  );
  const root = await mkdtemp(join(tmpdir(), 'hookwire-durable-bench-'));
  try {
    await durableVsLocal(root);
    await throughput(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
