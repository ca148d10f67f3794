/**
 * The spans of a run, checked with the OpenTelemetry SDK's in-memory exporter: the real loop, the
 * scripted model, real command-hook processes, and `otelTracer` over a real SDK tracer provider.
 */
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandHooks } from '../../src/hook-kinds/group/index.ts';
import { HookStack } from '../../src/hooks/stack/hook-stack.ts';
import {
  createAgent,
  readTranscript,
  ToolRegistry,
  type LoopTracer,
} from '../../src/loop/index.ts';
import { otelTracer } from '../../src/otel.ts';
import { createScriptedModel, type ScriptedTurn } from '../../src/testing.ts';
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
  {
    declaration: { name: 'echo', parameters: { type: 'object' } },
    execute: async (args) => args,
  },
  {
    declaration: { name: 'danger', parameters: { type: 'object' } },
    execute: async () => 'it ran',
  },
]);

/** A session whose first step calls echo and danger at once; a guard denies danger. */
async function runGuardedSession() {
  const allow = await project.script('allow.sh', 'cat >/dev/null; exit 0');
  const deny = await project.script(
    'deny.sh',
    'cat >/dev/null; echo "no danger today" >&2; exit 2',
  );
  const settings = await project.settings({
    SessionStart: [group([{ command: allow, name: 'greeter' }])],
    BeforeModel: [group([{ command: allow, name: 'model-watch' }])],
    PreToolUse: [
      group([{ command: allow, name: 'audit' }], { matcher: '*' }),
      group([{ command: deny, name: 'guard' }], { matcher: 'danger' }),
    ],
    Stop: [group([{ command: allow, name: 'finisher' }])],
  });
  const model = createScriptedModel([
    {
      blocks: [
        { type: 'tool_call', id: 'call-echo', name: 'echo', parameters: { text: 'hi' } },
        { type: 'tool_call', id: 'call-danger', name: 'danger', parameters: {} },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 120, completionTokens: 30 },
    },
    {
      blocks: [{ type: 'text', text: 'done' }],
      finishReason: 'stop',
      usage: { promptTokens: 200, completionTokens: 5 },
    },
  ]);
  const agent = createAgent({
    model,
    tools,
    hooks: new HookStack(createCommandHooks(settings, { runner: project.runner })),
    cwd: project.dir,
    tracer: otelTracer(provider.getTracer('hookwire')),
    // The transcript keeps each hook's payload only when asked (it may hold redacted secrets).
    recordPayloads: true,
  });
  const session = await agent.openSession({ sessionId: 'guarded' });
  const result = await session.run('check the workspace').result;
  await session.close('exit');
  return { result, transcriptPath: session.transcriptPath };
}

function byName(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

function parentOf(spans: readonly ReadableSpan[], span: ReadableSpan): ReadableSpan | undefined {
  const id = span.parentSpanContext?.spanId;
  return spans.find((candidate) => candidate.spanContext().spanId === id);
}

describe('spans of a run', () => {
  it('nest session > turn > model calls and tool calls, and each hook run under what it guarded', async () => {
    const { result } = await runGuardedSession();
    expect(result.status).toBe('completed');
    const spans = exporter.getFinishedSpans();

    const [session] = byName(spans, 'hookwire.session');
    expect(session?.attributes).toMatchObject({
      'gen_ai.conversation.id': 'guarded',
      'hookwire.session.source': 'startup',
      'hookwire.session.end_reason': 'exit',
    });
    const [turn] = byName(spans, 'invoke_agent hookwire');
    expect(parentOf(spans, turn!)).toBe(session);
    expect(turn?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'hookwire.turn.number': 1,
      'hookwire.turn.status': 'completed',
    });

    const chats = byName(spans, 'chat scripted');
    expect(chats).toHaveLength(2);
    for (const chat of chats) expect(parentOf(spans, chat)).toBe(turn);
    expect(chats.map((chat) => chat.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'scripted',
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 30,
      }),
      expect.objectContaining({
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.usage.input_tokens': 200,
        'gen_ai.usage.output_tokens': 5,
      }),
    ]);

    const [echo] = byName(spans, 'execute_tool echo');
    const [danger] = byName(spans, 'execute_tool danger');
    for (const tool of [echo, danger]) expect(parentOf(spans, tool!)).toBe(turn);
    expect(echo?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'call-echo',
      'hookwire.tool_call.status': 'ok',
    });
    expect(danger?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'call-danger',
      'hookwire.tool_call.status': 'skipped',
    });

    const hooks = byName(spans, 'hookwire.hook PreToolUse');
    const under = (parent: ReadableSpan | undefined) =>
      hooks
        .filter((span) => parentOf(spans, span) === parent)
        .map((span) => [
          span.attributes['hookwire.hook.name'],
          span.attributes['hookwire.hook.decision'],
        ]);
    expect(under(echo)).toEqual([['audit', 'allow']]);
    expect(under(danger).sort()).toEqual([
      ['audit', 'allow'],
      ['guard', 'deny'],
    ]);
    const guard = hooks.find((span) => span.attributes['hookwire.hook.name'] === 'guard');
    expect(guard?.attributes).toMatchObject({
      'hookwire.hook.event': 'PreToolUse',
      'hookwire.hook.kind': 'command',
      'hookwire.hook.dialect': 'hookwire',
      'hookwire.hook.matcher': 'danger',
      'hookwire.hook.status': 'blocked',
      'hookwire.hook.reason': 'no danger today',
      'hookwire.hook.exit_code': 2,
      'hookwire.hook.timed_out': false,
      'hookwire.hook.failed_closed': false,
      'gen_ai.tool.call.id': 'call-danger',
    });
    expect(guard?.attributes['hookwire.hook.duration_ms']).toBeGreaterThan(0);

    const beforeModel = byName(spans, 'hookwire.hook BeforeModel');
    expect(beforeModel.map((span) => parentOf(spans, span))).toEqual(chats);
    expect(byName(spans, 'hookwire.hook Stop').map((span) => parentOf(spans, span))).toEqual([
      turn,
    ]);
    expect(
      byName(spans, 'hookwire.hook SessionStart').map((span) => parentOf(spans, span)),
    ).toEqual([session]);
  });

  it('write the same hook runs, model calls and tool calls to the transcript', async () => {
    const { transcriptPath } = await runGuardedSession();
    const { records } = await readTranscript(transcriptPath);
    const runs = records.flatMap((record) => (record.type === 'hook-run' ? [record] : []));
    expect(
      runs.map((record) => [record.run.event, record.run.hook, record.run.decision]).sort(),
    ).toEqual([
      ['BeforeModel', 'model-watch', 'allow'],
      ['BeforeModel', 'model-watch', 'allow'],
      ['PreToolUse', 'audit', 'allow'],
      ['PreToolUse', 'audit', 'allow'],
      ['PreToolUse', 'guard', 'deny'],
      ['SessionStart', 'greeter', 'allow'],
      ['Stop', 'finisher', 'allow'],
    ]);
    const guard = runs.find((record) => record.run.hook === 'guard');
    expect(guard).toMatchObject({ turn: 1, modelCall: 1 });
    expect(guard?.run.payload).toContain('"tool_name":"danger"');
    expect(guard?.run.stderr).toBe('no danger today\n');
    expect(records.filter((record) => record.type === 'model-call')).toMatchObject([
      {
        turn: 1,
        modelCall: 1,
        status: 'answered',
        finishReason: 'tool_calls',
        provider: 'scripted',
      },
      { turn: 1, modelCall: 2, status: 'answered', finishReason: 'stop' },
    ]);
    // The step's two calls run concurrently: each is recorded as it ends, in whichever order
    // their hooks' processes finish.
    expect(
      records
        .flatMap((record) =>
          record.type === 'tool-call' ? [[record.toolName, record.status]] : [],
        )
        .sort(),
    ).toEqual([
      ['danger', 'skipped'],
      ['echo', 'ok'],
    ]);
  });
});

describe('otelTracer() with no tracer provider registered', () => {
  it('builds no span at all (the loop asks enabled() once per run), and a provider registered later is used from the next run', async () => {
    const inner = otelTracer();
    const started: string[] = [];
    // The default tracer, counted: every span the loop asks for goes through startSpan.
    const counted: LoopTracer = {
      enabled: () => inner.enabled?.() ?? true,
      startSpan: (name, options) => {
        started.push(name);
        return inner.startSpan(name, options);
      },
    };
    const script = (): ScriptedTurn[] => [
      {
        blocks: [{ type: 'tool_call', id: 'call-1', name: 'echo', parameters: {} }],
        finishReason: 'tool_calls',
      },
      { blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop' },
    ];
    let model = createScriptedModel(script());
    const agent = createAgent({
      model: {
        provider: 'scripted',
        modelId: 'scripted',
        generate: (request, options) => model.generate(request, options),
        stream: (request, options) => model.stream(request, options),
      },
      tools,
      cwd: project.dir,
      tracer: counted,
    });
    const session = await agent.openSession();
    try {
      expect(inner.enabled?.()).toBe(false);
      expect((await session.run('first').result).status).toBe('completed');
      expect(started).toEqual([]);

      expect(trace.setGlobalTracerProvider(provider)).toBe(true);
      expect(inner.enabled?.()).toBe(true);
      model = createScriptedModel(script());
      expect((await session.run('second').result).status).toBe('completed');
      expect(started).toEqual([
        'invoke_agent hookwire',
        'chat scripted',
        'execute_tool echo',
        'chat scripted',
      ]);
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
        'chat scripted',
        'execute_tool echo',
        'chat scripted',
        'invoke_agent hookwire',
      ]);
    } finally {
      await session.close('exit');
      trace.disable();
    }
  });
});
