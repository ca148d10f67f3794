/**
 * Loop overhead.
 *
 * 1. A step through the whole loop (no hooks; session, transcript, events, tool validation and
 *    execution included) beside calling the scripted model directly for the same answers. The
 *    model answers like a real one would: a few-KB response after a 1 ms wait (a real call takes
 *    hundreds of ms, so 1 ms is a conservative stand-in). Limit 1.1×: the loop adds ≤ 10%.
 *    The figure is the loop's steady state: 80 unmeasured runs (1,600 steps) come first, since
 *    V8 compiles the step's functions over the first ~1,500 steps of a process (measured in
 *    windows of 25 runs: 1.15× at first, 1.08–1.11× from the 75th run on). A 20-step run's time
 *    spreads ~12% (p90 over median) with the VM's timer wakeups, and the ratio moves with the
 *    machine over time, not only between samples: within one process of 240 rounds, its four
 *    quarters measured anywhere in 1.03–1.10×, and whole processes 1.04–1.11×. So the figure is
 *    measured in five processes one after another (200 rounds each, ~14 s apiece) and reported
 *    as the median of their ratios, each of which is printed (`acrossProcesses`).
 *    The same run is then compared with the same work written by hand (`handWrittenRun`: the
 *    history, validation, the calls written ahead, the tool, the messages written after): what
 *    the loop's own machinery (events, hook guards, budgets, records) adds. Limit 1.1×.
 *    The same figure with no wait at all is printed too, without a limit, to show the loop's own
 *    cost against a model that does nothing but copy its answer.
 * 2. A step with one no-op command hook on PreToolUse (a real process per tool call, through the
 *    spawn helper) beside the same step with no hook.
 * 3. A 2,000-chunk stream with one in-process text-delta observer beside the same stream with
 *    none.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, timing } from './built.ts';
import { acrossProcesses, compare, inBenchChild } from './harness.ts';
import type { ModelRequest } from '../src/content/index.ts';
import type * as HooksModule from '../src/hooks/index.ts';
import type * as LoopModule from '../src/loop/index.ts';
import type * as TestingModule from '../src/testing.ts';
import {
  handWrittenRun,
  noOpCommandHook,
  preparedRuns,
  shortToolStep,
  STEADY_WARMUP_RUNS,
  STEPS,
  toolStepTurns,
} from './tool-step-fixture.ts';

const { HookStack, ObservationAction } = await load<typeof HooksModule>('hooks/index');
const { createAgent } = await load<typeof LoopModule>('loop/index');
const { createScriptedModel } = await load<typeof TestingModule>('testing');
type HookStack = HooksModule.HookStack;
type ScriptedTurn = TestingModule.ScriptedTurn;

/** Rounds of the step figure in each of its processes, after the unmeasured warm-up runs. */
const STEP_ROUNDS = 200;
const STEP_WARMUP = STEADY_WARMUP_RUNS;
/** Processes the step figure is measured in, one after another. */
const STEP_PROCESSES = 5;

const request: ModelRequest = {
  model: 'scripted',
  contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'go' }] }],
};

/** The scripted model alone, called for the same answers as one run: the baseline. */
function directCalls(script: readonly ScriptedTurn[]): () => Promise<void> {
  return async () => {
    const model = createScriptedModel(script);
    for (let index = 0; index < STEPS; index++) await model.generate(request);
  };
}

export default async function loopBench(): Promise<void> {
  if (!inBenchChild()) console.log(`    ${timing()}`);
  const cwd = await mkdtemp(join(tmpdir(), 'hookwire-bench-'));
  try {
    await acrossProcesses('loop.bench.ts', 'loop-step', STEP_PROCESSES, async () => {
      const script = toolStepTurns(1);
      const runs = await preparedRuns(cwd, script, STEP_ROUNDS + STEP_WARMUP);
      try {
        return await compare(
          `loop step, no hooks, model answering ~3.5 KB after 1 ms (per ${STEPS}-step run) vs the scripted model alone`,
          runs.run,
          directCalls(script),
          { rounds: STEP_ROUNDS, warmupRounds: STEP_WARMUP, limit: 1.1, unit: 'ms' },
        );
      } finally {
        await runs.close();
      }
    });
    if (!inBenchChild()) await measureInProcess(cwd);
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

/** The figures measured in this process: every one but the step figure. */
async function measureInProcess(cwd: string): Promise<void> {
  const script = toolStepTurns(1);
  const warmed = await preparedRuns(cwd, script, 60 + STEP_WARMUP);
  await compare(
    `loop step, no hooks, model answering ~3.5 KB after 1 ms (per ${STEPS}-step run) vs the same work written by hand`,
    warmed.run,
    handWrittenRun(cwd, script),
    { rounds: 60, warmupRounds: STEP_WARMUP, limit: 1.1, unit: 'ms' },
  );
  await warmed.close();

  const instant = toolStepTurns(0);
  const runs = await preparedRuns(cwd, instant, 33);
  await compare(
    `loop step, no hooks, model answering instantly (per ${STEPS}-step run; no limit: the loop's own cost) vs the scripted model alone`,
    runs.run,
    directCalls(instant),
    { rounds: 30, unit: 'µs' },
  );
  await runs.close();

  // A tool step (model call, one tool call, model call) with and without a no-op PreToolUse hook.
  const { hooks: commandHooks, runner } = noOpCommandHook(cwd);
  await compare(
    'tool step with one no-op command hook on PreToolUse vs the same step with none',
    shortToolStep(cwd, { hooks: commandHooks }),
    shortToolStep(cwd),
    { rounds: 40, unit: 'ms' },
  );
  await runner.close();

  const words = Array.from({ length: 2000 }, (_, index) => `word${index} `).join('');
  const streamScript: ScriptedTurn[] = [
    { blocks: [{ type: 'text', text: words }], finishReason: 'stop' },
  ];
  const observer = new HookStack([
    { name: 'delta observer', onTextDelta: () => ObservationAction.continue() },
  ]);
  const streamRun = (hooks: HookStack | undefined) => async (): Promise<void> => {
    const agent = createAgent({
      model: createScriptedModel(streamScript, { deltasPerBlock: 2000 }),
      cwd,
      ...(hooks === undefined ? {} : { hooks }),
    });
    const session = await agent.openSession();
    const handle = session.run('stream', { streaming: true });
    let deltas = 0;
    for await (const event of handle) if (event.type === 'text-delta') deltas++;
    if (deltas !== 2000) throw new Error(`expected 2000 deltas, got ${deltas}`);
    await session.close('exit');
  };
  await compare(
    '2,000-chunk stream with one in-process text-delta observer vs none',
    streamRun(observer),
    streamRun(undefined),
    {
      rounds: 20,
      unit: 'ms',
    },
  );
}
