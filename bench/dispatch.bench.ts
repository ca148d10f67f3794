/**
 * HookStack dispatch cost. For stacks of 1, 10 and 100 members that answer synchronously with
 * continue, one dispatch through the stack is compared with the cheapest honest loop doing the
 * same calls: an indexed `for` over the members calling each one's method directly (one named,
 * monomorphic call site) and comparing its answer with the shared "no opinion" value, stopping at
 * the first other answer (limit 2×). The stack adds to that only its error handling and lists. Then the cost of an unobserved stream
 * delta behind the loop's `observes` guard, against an empty baseline, and its heap allocation
 * with a 1 MB payload against a 1-byte payload (no allocation may grow with the payload).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { load, timing } from './built.ts';
import { compare, record } from './harness.ts';
import type * as HooksModule from '../src/hooks/index.ts';
import type { AgentHook, ToolCallEvent, TextDeltaEvent } from '../src/hooks/index.ts';

const { createHookContext, HookStack, ObservationAction, ToolCallAction } =
  await load<typeof HooksModule>('hooks/index');
type ObservationAction = HooksModule.ObservationAction;
type ToolCallAction = HooksModule.ToolCallAction;

const context = createHookContext();
const toolCall: ToolCallEvent = {
  toolName: 'read',
  toolCallId: 'call-1',
  args: { path: 'a' },
  originalArgs: { path: 'a' },
};
const textDelta: TextDeltaEvent = { delta: 'token', aggregated: 'some text so far token' };

// The shared "no opinion" answers (singletons), which the floor compares by identity.
const RUN = ToolCallAction.run();
const CONTINUE = ObservationAction.continue();

/** A member as the floor loop sees it: both methods present. */
interface Member {
  onToolCall(context: unknown, event: ToolCallEvent): ToolCallAction;
  onTextDelta(context: unknown, event: TextDeltaEvent): ObservationAction;
}

// Each member gets its own closures, as independent hooks would.
function member(): AgentHook & Member {
  return {
    onToolCall: () => ((calls += 1), ToolCallAction.run()),
    onTextDelta: () => ((calls += 1), ObservationAction.continue()),
  };
}

/** The floor of an `onToolCall` dispatch: each member called in turn until one acts. */
function directToolCall(hooks: readonly Member[], event: ToolCallEvent): ToolCallAction {
  for (let index = 0; index < hooks.length; index++) {
    const action = hooks[index]!.onToolCall(context, event);
    if (action !== RUN) return action;
  }
  return RUN;
}

/** The floor of an `onTextDelta` dispatch. */
function directTextDelta(hooks: readonly Member[], event: TextDeltaEvent): ObservationAction {
  for (let index = 0; index < hooks.length; index++) {
    const action = hooks[index]!.onTextDelta(context, event);
    if (action !== CONTINUE) return action;
  }
  return CONTINUE;
}

let sink = 0;
let calls = 0;

export default async function dispatchBenchmark(): Promise<void> {
  console.log(`    ${timing()}`);
  for (const size of [1, 10, 100]) {
    const hooks = Array.from({ length: size }, member);
    const stack = new HookStack(hooks);
    const operationsPerSample = Math.max(2_000, 200_000 / size);

    await compare(
      `onToolCall, ${size} continuing hook(s): HookStack vs a direct loop`,
      () => {
        const action = stack.onToolCall(context, toolCall);
        sink += (action as ToolCallAction).kind.length;
      },
      () => {
        sink += directToolCall(hooks, toolCall).kind.length;
      },
      { rounds: 30, operationsPerSample, limit: 2, unit: 'ns' },
    );

    await compare(
      `onTextDelta, ${size} continuing hook(s): HookStack vs a direct loop`,
      () => {
        const action = stack.onTextDelta(context, textDelta);
        sink += (action as ObservationAction).kind.length;
      },
      () => {
        sink += directTextDelta(hooks, textDelta).kind.length;
      },
      { rounds: 30, operationsPerSample, limit: 2, unit: 'ns' },
    );
  }

  // An unobserved delta: ten members, none of which observes text deltas.
  const stack = new HookStack(
    Array.from({ length: 10 }, () => ({ onToolCall: () => ToolCallAction.run() })),
  );
  const large = 'x'.repeat(1 << 20);
  const small = 'x';
  const fireUnobserved = (delta: string, aggregated: string) => {
    if (stack.observes('textDelta')) void stack.onTextDelta(context, { delta, aggregated });
  };
  await compare(
    'unobserved onTextDelta (1 MB payload) behind observes(): guard vs empty baseline',
    () => {
      fireUnobserved(large, large);
    },
    () => undefined,
    { rounds: 30, operationsPerSample: 200_000, unit: 'ns' },
  );

  const iterations = 1_000_000;
  const collect = garbageCollector();
  const bytesPerOperation = (delta: string): number => {
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < iterations; index++) fireUnobserved(delta, delta);
    const after = process.memoryUsage().heapUsed;
    return Math.max(0, after - before) / iterations;
  };
  const samples = (delta: string) =>
    Array.from({ length: 7 }, () => bytesPerOperation(delta)).sort((a, b) => a - b);
  const largeSamples = samples(large);
  const smallSamples = samples(small);
  const median = (values: number[]) => values[Math.floor(values.length / 2)] ?? 0;
  const p90 = (values: number[]) => values[Math.floor(values.length * 0.9)] ?? 0;
  const candidate = {
    median: median(largeSamples),
    p90: p90(largeSamples),
    samples: largeSamples.length,
  };
  const baseline = {
    median: median(smallSamples),
    p90: p90(smallSamples),
    samples: smallSamples.length,
  };
  record({
    name: `heap bytes per unobserved onTextDelta (bytes, not ns): 1 MB payload vs 1 B payload (${iterations} firings per sample)`,
    candidate,
    baseline,
    // Both are ~0 bytes; the ratio is taken on (bytes + 1) so zero against zero reads 1.0 and an
    // allocation that grew with the payload (≥ 1 MB per firing) would read in the millions.
    ratio: (candidate.median + 1) / (baseline.median + 1),
    unit: 'ns',
  });
  if (sink + calls < 0) console.log('unreachable: keeps the measured work observable');
}

/** `gc()` without `--expose-gc` on the command line, so samples start from a collected heap. */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return gc ?? (() => undefined);
}
