/**
 * Every hook kind reports its runs through one seam (`HookContext.recordHookRun`): in-process
 * hooks, timed by the `HookStack` that calls them, land in the transcript's `hook-run` records,
 * in `hookwire hooks stats` and in the trace beside command hooks, and as `hookwire.hook` spans
 * under what they guarded. The real loop, the scripted model, a real command-hook process.
 */
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookStats } from '../../src/cli/telemetry/hook-stats.ts';
import { traceModel } from '../../src/cli/telemetry/trace-model.ts';
import { createCommandHooks } from '../../src/hook-kinds/group/index.ts';
import { HookStack } from '../../src/hooks/stack/hook-stack.ts';
import {
  ObservationAction,
  ToolCallAction,
  ToolResultAction,
  type AgentHook,
} from '../../src/index.ts';
import {
  createAgent,
  readTranscript,
  ToolRegistry,
  type TranscriptRecord,
} from '../../src/loop/index.ts';
import { otelTracer } from '../../src/otel.ts';
import { createScriptedModel } from '../../src/testing.ts';
import { createHookProject, group, type HookProject } from '../command-hooks/support.ts';

let project: HookProject;
let exporter: InMemorySpanExporter;
let provider: TracerProvider;
beforeEach(async () => {
  project = await createHookProject();
  exporter = new InMemorySpanExporter();
  provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
});
afterEach(async () => {
  await provider.shutdown();
  await project.close();
});

const tools = new ToolRegistry([
  { declaration: { name: 'echo', parameters: { type: 'object' } }, execute: async (args) => args },
  {
    declaration: { name: 'danger', parameters: { type: 'object' } },
    execute: async () => 'it ran',
  },
]);

/** Denies `danger`, runs everything else (asynchronously, as real guards often answer). */
const guard: AgentHook = {
  name: 'in-process guard',
  onToolCall: async (_context, event) =>
    event.toolName === 'danger' ? ToolCallAction.skip('danger is off today') : ToolCallAction.run(),
};
/** Adds context to every tool result. */
const annotator: AgentHook = {
  name: 'annotator',
  onToolResult: () => ToolResultAction.keep('checked by the annotator'),
};
/** Throws on Stop: a failing in-process hook (recorded, the run goes on). */
const broken: AgentHook = {
  name: 'broken',
  onStop: () => {
    throw new Error('the broken hook fell over');
  },
};
/** Observes every text delta: not recorded run by run (it would flood the transcript). */
const deltaWatcher: AgentHook = {
  name: 'delta watcher',
  onTextDelta: () => ObservationAction.continue(),
};

async function runSession(): Promise<{
  readonly records: readonly TranscriptRecord[];
  readonly sessionId: string;
}> {
  const audit = await project.script('audit.sh', 'cat >/dev/null; exit 0');
  const settings = await project.settings({
    PreToolUse: [group([{ command: audit, name: 'audit' }], { matcher: '*' })],
  });
  const model = createScriptedModel([
    {
      blocks: [
        { type: 'tool_call', id: 'call-echo', name: 'echo', parameters: { text: 'hi' } },
        { type: 'tool_call', id: 'call-danger', name: 'danger', parameters: {} },
      ],
      finishReason: 'tool_calls',
    },
    { blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop' },
  ]);
  const hooks = new HookStack([
    ...createCommandHooks(settings, { runner: project.runner }),
    // A nested stack: its members are recorded once, by the stack that calls them.
    new HookStack([guard, annotator]),
    new HookStack([broken], { onHookError: 'record' }),
    deltaWatcher,
  ]);
  const agent = createAgent({
    model,
    tools,
    hooks,
    cwd: project.dir,
    tracer: otelTracer(provider.getTracer('hookwire')),
  });
  const session = await agent.openSession({ sessionId: 'in-process' });
  const result = await session.run('check the workspace', { streaming: true }).result;
  expect(result.status).toBe('completed');
  await session.close('exit');
  const { records } = await readTranscript(session.transcriptPath);
  return { records, sessionId: 'in-process' };
}

describe('in-process hook runs', () => {
  it('are recorded in the transcript beside command hook runs, each once, with decision, status and the tool call', async () => {
    const { records } = await runSession();
    const runs = records.flatMap((record) => (record.type === 'hook-run' ? [record.run] : []));
    const summary = runs
      .map((run) => [run.event, run.hook, run.kind, run.decision, run.status, run.toolCallId ?? ''])
      .sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
    // A skipped call still reaches PostToolUse (skipped: true), so the annotator runs twice.
    expect(summary).toEqual([
      ['PostToolUse', 'annotator', 'in-process', 'context', 'ok', 'call-danger'],
      ['PostToolUse', 'annotator', 'in-process', 'context', 'ok', 'call-echo'],
      ['PreToolUse', 'audit', 'command', 'allow', 'ok', 'call-danger'],
      ['PreToolUse', 'audit', 'command', 'allow', 'ok', 'call-echo'],
      ['PreToolUse', 'in-process guard', 'in-process', 'allow', 'ok', 'call-echo'],
      ['PreToolUse', 'in-process guard', 'in-process', 'deny', 'blocked', 'call-danger'],
      ['Stop', 'broken', 'in-process', 'allow', 'error', ''],
    ]);
    const denial = runs.find((run) => run.decision === 'deny');
    expect(denial).toMatchObject({
      reason: 'danger is off today',
      timedOut: false,
      failedClosed: false,
      answer: JSON.stringify({ kind: 'skip', reason: 'danger is off today' }),
    });
    expect(denial?.durationMs).toBeGreaterThanOrEqual(0);
    expect(runs.find((run) => run.hook === 'broken')?.reason).toBe('the broken hook fell over');
  });

  it('count in hooks stats and appear in the trace, with the denial among its problems', async () => {
    const { records, sessionId } = await runSession();
    const stats = hookStats([{ sessionId, records }]);
    expect(
      stats.hooks.map((hook) => [hook.event, hook.hook, hook.kind, hook.runs, hook.decisions.deny]),
    ).toEqual([
      ['PostToolUse', 'annotator', 'in-process', 2, 0],
      ['PreToolUse', 'audit', 'command', 2, 0],
      ['PreToolUse', 'in-process guard', 'in-process', 2, 1],
      ['Stop', 'broken', 'in-process', 1, 0],
    ]);
    expect(stats.hooks.find((hook) => hook.hook === 'broken')?.failures).toBe(1);
    const trace = traceModel(sessionId, records);
    expect(trace.hookRunCount).toBe(7);
    expect(trace.problems.map((run) => [run.hook, run.problem])).toEqual([
      ['in-process guard', 'denial'],
      ['broken', 'failure'],
    ]);
  });

  it('are hookwire.hook spans under the tool call they guarded', async () => {
    await runSession();
    const spans = exporter.getFinishedSpans();
    const guardSpans = spans.filter(
      (span) => span.attributes['hookwire.hook.name'] === 'in-process guard',
    );
    expect(guardSpans).toHaveLength(2);
    for (const span of guardSpans) {
      expect(span.name).toBe('hookwire.hook PreToolUse');
      expect(span.attributes['hookwire.hook.kind']).toBe('in-process');
      const parent = spans.find(
        (candidate) => candidate.spanContext().spanId === span.parentSpanContext?.spanId,
      );
      expect(parent?.name).toBe(
        span.attributes['gen_ai.tool.call.id'] === 'call-danger'
          ? 'execute_tool danger'
          : 'execute_tool echo',
      );
    }
    expect(
      guardSpans.find((span) => span.attributes['hookwire.hook.decision'] === 'deny')?.attributes[
        'gen_ai.tool.call.id'
      ],
    ).toBe('call-danger');
    expect(spans.some((span) => span.attributes['hookwire.hook.name'] === 'delta watcher')).toBe(
      false,
    );
  });
});
