/**
 * Telemetry's cost.
 *
 * 1. A loop step (the loop benchmark's run: 20 steps, each a ~3.5 KB answer after 1 ms and one
 *    tool call) with `tracer: otelTracer()` and no tracer provider registered (the API's no-op
 *    tracer: what a library user who passes the tracer but configures no SDK pays; the loop asks
 *    the tracer's `enabled()` once per run and then builds no span) vs the same run with no
 *    tracer at all. Limit 1.02×. The workload is bench/tool-step-fixture.ts, shared with the loop
 *    benchmark.
 * 2. The same run with a registered SDK provider (a batch span processor and an exporter that
 *    drops what it gets, so export I/O is not counted) vs no tracer. Limit 1.1×.
 * 3. A tool step whose call runs one no-op command hook (a real process), with the SDK provider vs
 *    no tracer: the cost of a hook-run span and of the tool and model spans around it. Limit 1.1×.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportResultCode } from '@opentelemetry/core';
import {
  BatchSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';
import type { LoopTracer } from '../src/loop/index.ts';
import type * as OtelModule from '../src/otel.ts';
import {
  noOpCommandHook,
  preparedRuns,
  shortToolStep,
  STEADY_WARMUP_RUNS,
  STEPS,
  toolStepTurns,
} from './tool-step-fixture.ts';

const { otelTracer } = await load<typeof OtelModule>('otel');

/** An exporter that drops every span: the SDK's work is counted, the network's is not. */
class DroppingExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: ExportResultCode }) => void): void {
    this.spans += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

export default async function telemetryBench(): Promise<void> {
  console.log(`    ${timing()}`);
  const cwd = await mkdtemp(join(tmpdir(), 'hookwire-bench-telemetry-'));
  // Figures 1 and 2 time the loop benchmark's run, in its steady state as the loop benchmark
  // does (see loop.bench.ts): 80 unmeasured runs first, while V8 still compiles the step, then 240
  // rounds, since a run's time spreads ~12% with the VM's timer wakeups (figure 1 compares two
  // runs that differ by one `enabled()` check; figure 2 read 1.09-1.14x over 30 rounds).
  const ROUNDS = 240;
  const WARMUP = STEADY_WARMUP_RUNS;
  const runs = ROUNDS + WARMUP;
  const script = toolStepTurns(1);
  const prepared = (tracer: LoopTracer | undefined) =>
    preparedRuns(cwd, script, runs, tracer === undefined ? {} : { tracer });

  // 1. No provider registered: `enabled()` is false, the run builds no span.
  {
    const candidate = await prepared(otelTracer());
    const baseline = await prepared(undefined);
    await compare(
      `loop step with otelTracer() and no tracer provider registered vs no tracer (per ${STEPS}-step run)`,
      candidate.run,
      baseline.run,
      { rounds: ROUNDS, warmupRounds: WARMUP, limit: 1.02, unit: 'ms' },
    );
    await candidate.close();
    await baseline.close();
  }

  const exporter = new DroppingExporter();
  const provider = new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const recording = otelTracer(provider.getTracer('hookwire'));

  // 2. A registered SDK provider recording every span.
  {
    const candidate = await prepared(recording);
    const baseline = await prepared(undefined);
    await compare(
      `loop step with an SDK tracer provider recording every span vs no tracer (per ${STEPS}-step run)`,
      candidate.run,
      baseline.run,
      { rounds: ROUNDS, warmupRounds: WARMUP, limit: 1.1, unit: 'ms' },
    );
    await candidate.close();
    await baseline.close();
  }

  // 3. A hook run: a tool step whose call runs one no-op command hook.
  const { hooks, runner } = noOpCommandHook(cwd);
  const hookStep = (tracer: LoopTracer | undefined) =>
    shortToolStep(cwd, tracer === undefined ? { hooks } : { hooks, tracer });
  await compare(
    'tool step with one no-op command hook, SDK tracer provider recording vs no tracer',
    hookStep(recording),
    hookStep(undefined),
    { rounds: 40, limit: 1.1, unit: 'ms' },
  );
  await runner.close();
  await provider.shutdown();
  if (exporter.spans === 0) throw new Error('the recording provider exported no span');
  await rm(cwd, { recursive: true, force: true });
}
