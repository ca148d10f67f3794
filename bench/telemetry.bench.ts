/**
 * Telemetry's cost.
 *
 * 1. A loop step (the loop benchmark's run: 20 steps, each a ~3.5 KB answer after 1 ms and one
 *    tool call) with `tracer: otelTracer()` and no tracer provider registered (the API's no-op
 *    tracer: what a library user who passes the tracer but configures no SDK pays) vs the same
 *    run with no tracer at all. Limit 1.02×.
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
import { compare } from './harness.ts';
import { HookStack } from '../src/hooks/stack/hook-stack.ts';
import { createAgent, ToolRegistry, type LoopTracer } from '../src/loop/index.ts';
import { otelTracer } from '../src/otel.ts';
import { createScriptedModel, type ScriptedTurn } from '../src/testing.ts';
import {
  createCommandHooks,
  createCommandRunner,
  mergeSettingsFiles,
  parseSettingsText,
} from '../src/hook-kinds/command/index.ts';

const STEPS = 20;
const prose =
  'The loop calls the model, runs the tools it asked for, and fires every hook on the way. '.repeat(
    40,
  );

function turns(): ScriptedTurn[] {
  const list: ScriptedTurn[] = [];
  for (let index = 0; index < STEPS - 1; index++) {
    list.push({
      blocks: [
        { type: 'text', text: prose },
        { type: 'tool_call', id: `call-${index}`, name: 'echo', parameters: { text: 'ping' } },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 1200, completionTokens: 900 },
      delayMs: 1,
    });
  }
  list.push({ blocks: [{ type: 'text', text: prose }], finishReason: 'stop', delayMs: 1 });
  return list;
}

const tools = new ToolRegistry([
  {
    declaration: {
      name: 'echo',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    execute: async (args) => args,
  },
]);

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

async function preparedRuns(cwd: string, tracer: LoopTracer | undefined, count: number) {
  const script = turns();
  const sessions = await Promise.all(
    Array.from({ length: count }, async () => {
      let model = createScriptedModel(script);
      const agent = createAgent({
        model: {
          provider: 'scripted',
          modelId: 'scripted',
          generate: (request, options) => model.generate(request, options),
          stream: (request, options) => model.stream(request, options),
        },
        tools,
        cwd,
        maxModelCalls: STEPS,
        ...(tracer === undefined ? {} : { tracer }),
      });
      return {
        session: await agent.openSession(),
        reset: () => (model = createScriptedModel(script)),
      };
    }),
  );
  let next = 0;
  return {
    run: async (): Promise<void> => {
      const entry = sessions[next++];
      if (entry === undefined) throw new Error('bench ran out of pre-opened sessions');
      entry.reset();
      const result = await entry.session.run('go').result;
      if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}`);
    },
    close: () => Promise.all(sessions.map((entry) => entry.session.close('exit'))),
  };
}

export default async function telemetryBench(): Promise<void> {
  const cwd = await mkdtemp(join(tmpdir(), 'hookwire-bench-telemetry-'));
  const ROUNDS = 30;
  const runs = ROUNDS + 3;

  // 1. No provider registered: the API's proxy tracer hands out non-recording spans.
  {
    const candidate = await preparedRuns(cwd, otelTracer(), runs);
    const baseline = await preparedRuns(cwd, undefined, runs);
    await compare(
      `loop step with otelTracer() and no tracer provider registered vs no tracer (per ${STEPS}-step run)`,
      candidate.run,
      baseline.run,
      { rounds: ROUNDS, limit: 1.02, unit: 'ms' },
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
    const candidate = await preparedRuns(cwd, recording, runs);
    const baseline = await preparedRuns(cwd, undefined, runs);
    await compare(
      `loop step with an SDK tracer provider recording every span vs no tracer (per ${STEPS}-step run)`,
      candidate.run,
      baseline.run,
      { rounds: ROUNDS, limit: 1.1, unit: 'ms' },
    );
    await candidate.close();
    await baseline.close();
  }

  // 3. A hook run: a tool step whose call runs one no-op command hook.
  const runner = createCommandRunner();
  const settings = mergeSettingsFiles([
    parseSettingsText(
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true', name: 'no-op' }] }] },
      }),
      { file: 'bench-settings.json', layer: 'extra' },
    ),
  ]);
  const hooks = new HookStack(createCommandHooks(settings, { runner, projectDir: cwd }));
  const toolStep: ScriptedTurn[] = [
    {
      blocks: [{ type: 'tool_call', id: 'call-1', name: 'echo', parameters: { text: 'ping' } }],
      finishReason: 'tool_calls',
      delayMs: 1,
    },
    { blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop', delayMs: 1 },
  ];
  const hookStep = (tracer: LoopTracer | undefined) => async (): Promise<void> => {
    const agent = createAgent({
      model: createScriptedModel(toolStep),
      tools,
      cwd,
      hooks,
      ...(tracer === undefined ? {} : { tracer }),
    });
    const session = await agent.openSession();
    const result = await session.run('go').result;
    if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}`);
    await session.close('exit');
  };
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
