/**
 * `hookwire/ai-sdk` against the real `ai` package and its mock language model (`ai/test`):
 * the wrapped model and tools fire hookwire's hooks, from settings files and in-process hooks.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  CompletionCallAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  ToolSelectionAction,
  type AgentHook,
} from '../../src/index.ts';
import { createHookwire, HookDeniedError, type Hookwire } from '../../src/ai-sdk.ts';
import { hookStats } from '../../src/cli/telemetry/hook-stats.ts';
import { readTranscript, type TranscriptRecord } from '../../src/loop/index.ts';
import { textOf } from '../../src/content/index.ts';
import {
  group,
  readFileTool,
  textAnswer,
  toolCallAnswer,
  toolOutputsOf,
  userTextsOf,
  useHookwireFixture,
} from './support.ts';

const fixture = useHookwireFixture(createHookwire);
const { open } = fixture;

describe('hw.generateText with no hooks', () => {
  it('returns what the bare AI SDK returns', async () => {
    const instance = await open();
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('hello') });
    const result = await instance.generateText({ model, prompt: 'Say hello' });
    expect(result.text).toBe('hello');
    const bare = await generateText({
      model: new MockLanguageModelV4({ doGenerate: textAnswer('hello') }),
      prompt: 'Say hello',
    });
    expect(result.finishReason).toBe(bare.finishReason);
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Say hello' }] },
    ]);
  });

  it('hw.wrapModel hands a call no hook observes straight to the model (its own promise, no middleware layer)', async () => {
    const instance = await open();
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('direct') });
    const answers: PromiseLike<unknown>[] = [];
    const inner = model.doGenerate.bind(model);
    model.doGenerate = (params) => {
      const answered = inner(params);
      answers.push(answered);
      return answered;
    };
    const wrapped = instance.wrapModel(model);
    const params = {
      prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
    };
    const returned = wrapped.doGenerate(params);
    expect(answers).toHaveLength(1);
    expect(returned).toBe(answers[0]);
    expect(model.doGenerateCalls[0]).toBe(params);
  });

  it('SessionStart context reaches the first prompt without a transcript, and only the first', async () => {
    const instance = await open({
      hooks: [
        { onSessionStart: () => ({ kind: 'continue', additionalContext: 'Project: hookwire.' }) },
      ],
    });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('hi') });
    await instance.generateText({ model, prompt: 'Hello' });
    await instance.generateText({ model, prompt: 'Again' });
    expect(model.doGenerateCalls.map((call) => userTextsOf(call))).toEqual([
      ['Project: hookwire. Hello'],
      ['Again'],
    ]);
  });

  it('a turn hook pushed onto hw.hooks is seen by the next hw.generateText', async () => {
    const instance = await open();
    const model = new MockLanguageModelV4({
      doGenerate: [textAnswer('first'), textAnswer('second'), textAnswer('third')],
    });
    expect((await instance.generateText({ model, prompt: 'one' })).text).toBe('first');
    const stops: string[] = [];
    instance.hooks.push({
      onStop(_context, event) {
        stops.push(event.promptResponse);
        return event.stopHookActive ? StopAction.continue() : StopAction.block('Once more.');
      },
    });
    const result = await instance.generateText({ model, prompt: 'two' });
    expect(result.text).toBe('third');
    expect(stops).toEqual(['second', 'third']);
  });

  it('a hook pushed after hw.wrapModel is seen on the next call of the wrapped model', async () => {
    const instance = await open();
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('from the model') });
    const wrapped = instance.wrapModel(model);
    expect((await generateText({ model: wrapped, prompt: 'one' })).text).toBe('from the model');
    instance.hooks.push({
      onCompletionCall: () =>
        CompletionCallAction.respond({
          content: { speaker: 'ai', blocks: [{ type: 'text', text: 'from the hook' }] },
        }),
    });
    expect((await generateText({ model: wrapped, prompt: 'two' })).text).toBe('from the hook');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('a wrapped model with no model hook still counts the run’s model calls tool hooks see', async () => {
    const seen: number[] = [];
    const instance = await open({
      hooks: [
        {
          onToolCall(context) {
            seen.push(context.modelCall);
            return ToolCallAction.run();
          },
        },
      ],
    });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallAnswer('c1', 'read_file', { path: 'a' }),
        toolCallAnswer('c2', 'read_file', { path: 'b' }),
        textAnswer('done'),
      ],
    });
    const ran: unknown[] = [];
    const tools = instance.wrapTools({ read_file: readFileTool(ran) });
    const result = await instance.generateText({
      model: instance.wrapModel(model),
      tools,
      prompt: 'Read a and b',
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe('done');
    expect(ran).toEqual([{ path: 'a' }, { path: 'b' }]);
    expect(seen).toEqual([1, 2]);
  });
});

describe('PreToolUse from a settings file', () => {
  it('a command hook that denies: execute never runs, the model sees the reason as the tool error', async () => {
    const guard = await fixture.project.script(
      'guard.sh',
      'cat > /dev/null; echo "reading secrets is not allowed" >&2; exit 2',
    );
    const settings = await fixture.project.settings('hooks.json', {
      PreToolUse: [group([{ command: guard }], { matcher: 'read_file' })],
    });
    const instance = await open({ settings: [settings] });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('call-1', 'read_file', { path: '.env' }), textAnswer('ok')],
    });
    const ran: unknown[] = [];
    const result = await instance.generateText({
      model,
      tools: { read_file: readFileTool(ran) },
      prompt: 'Read .env',
      stopWhen: isStepCount(3),
    });
    expect(ran).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      {
        type: 'error-text',
        value: expect.stringContaining('reading secrets is not allowed') as string,
      },
    ]);
    expect(result.text).toBe('ok');
  });

  it('project hooks need trust, exactly as in hookwire run (trustProject: true trusts them)', async () => {
    const guard = await fixture.project.script(
      'deny.sh',
      'cat > /dev/null; echo "project says no" >&2; exit 2',
    );
    await fixture.project.settings('.hookwire/settings.json', {
      PreToolUse: [group([{ command: guard }])],
    });
    const run = async (instance: Hookwire): Promise<unknown[]> => {
      const ran: unknown[] = [];
      await instance.generateText({
        model: new MockLanguageModelV4({
          doGenerate: [toolCallAnswer('c', 'read_file', { path: 'a' }), textAnswer('ok')],
        }),
        tools: { read_file: readFileTool(ran) },
        prompt: 'Read a',
        stopWhen: isStepCount(3),
      });
      await instance.close();
      return ran;
    };
    const reports: string[] = [];
    const untrusted = await open({ onReport: (report) => reports.push(report.text) });
    expect(await run(untrusted)).toEqual([{ path: 'a' }]);
    expect(reports).toEqual([expect.stringContaining('skipped 1 project hook as not trusted')]);
    expect(await run(await open({ trustProject: true }))).toEqual([]);
  });

  it('a module hook (a .ts file whose default export is an AgentHook) denies: execute never runs', async () => {
    const module = join(fixture.project.dir, 'guard.ts');
    await writeFile(
      module,
      "export default { onToolCall(_c: unknown, call: { args: { path?: string } }) { return call.args.path === '.env' ? { kind: 'skip', reason: 'module says no' } : { kind: 'run' }; } };\n",
    );
    const settings = await fixture.project.settings('hooks.json', {
      PreToolUse: [{ matcher: 'read_file', hooks: [{ type: 'module', path: module }] }],
    });
    const instance = await open({ settings: [settings] });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('call-1', 'read_file', { path: '.env' }), textAnswer('ok')],
    });
    const ran: unknown[] = [];
    await instance.generateText({
      model,
      tools: { read_file: readFileTool(ran) },
      prompt: 'Read .env',
      stopWhen: isStepCount(3),
    });
    expect(ran).toEqual([]);
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      { type: 'error-text', value: expect.stringContaining('module says no') as string },
    ]);
  });

  it('relative settings paths resolve against cwd', async () => {
    const guard = await fixture.project.script('deny.sh', 'cat > /dev/null; echo no >&2; exit 2');
    await fixture.project.settings('conf/hooks.json', {
      PreToolUse: [group([{ command: guard }])],
    });
    const instance = await open({ settings: ['conf/hooks.json'] });
    expect(instance.settings.files.at(-1)).toMatchObject({
      layer: 'extra',
      file: join(fixture.project.dir, 'conf', 'hooks.json'),
      status: 'loaded',
    });
  });
});

describe('tool hooks in process', () => {
  it('a rewrite changes the input execute runs with; PostToolUse replaces what the model sees', async () => {
    const hooks: AgentHook[] = [
      {
        name: 'jail',
        onToolCall: (_context, event) =>
          ToolCallAction.rewrite({ path: `sandbox/${(event.args as { path: string }).path}` }),
      },
      {
        name: 'redact',
        onToolResult: () => ToolResultAction.rewrite('[redacted]', 'the file was redacted'),
      },
    ];
    const instance = await open({ hooks });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('call-1', 'read_file', { path: 'a.txt' }), textAnswer('done')],
    });
    const ran: unknown[] = [];
    const result = await instance.generateText({
      model,
      tools: { read_file: readFileTool(ran) },
      prompt: 'Read a.txt',
      stopWhen: isStepCount(3),
    });
    expect(ran).toEqual([{ path: 'sandbox/a.txt' }]);
    // The app keeps the raw output; the model saw the presentation and the context.
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      content: 'contents of sandbox/a.txt',
    });
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      { type: 'text', value: '[redacted]\nthe file was redacted' },
    ]);
  });

  it('a tool that throws fires PostToolUseFailure, whose context reaches the model', async () => {
    const failures: string[] = [];
    const instance = await open({
      hooks: [
        {
          onToolFailure(_context, event) {
            failures.push(event.error);
            return { kind: 'continue', additionalContext: 'try another path' };
          },
        },
      ],
    });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('c', 'read_file', { path: 'x' }), textAnswer('sorry')],
    });
    await instance.generateText({
      model,
      tools: {
        read_file: tool({
          inputSchema: jsonSchema<{ path: string }>({ type: 'object' }),
          execute: async (): Promise<string> => {
            throw new Error('ENOENT: x');
          },
        }),
      },
      prompt: 'Read x',
      stopWhen: isStepCount(3),
    });
    expect(failures).toEqual(['ENOENT: x']);
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      { type: 'error-text', value: 'Error: ENOENT: x\ntry another path' },
    ]);
  });
});

describe('model-call hooks', () => {
  it('a BeforeModel synthetic response from a command hook: the model is never called', async () => {
    const respond = await fixture.project.script(
      'respond.sh',
      `cat > /dev/null; printf '%s' '{"hookSpecificOutput":{"hookEventName":"BeforeModel","llm_response":{"version":2,"content":{"speaker":"ai","blocks":[{"type":"text","text":"cached answer"}]},"finishReason":"stop"}}}'`,
    );
    const settings = await fixture.project.settings('hooks.json', {
      BeforeModel: [group([{ command: respond }])],
    });
    const instance = await open({ settings: [settings] });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('from the model') });
    const result = await instance.generateText({ model, prompt: 'Hi' });
    expect(result.text).toBe('cached answer');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a BeforeModel patch reaches the call; the hook sees the v2 request converted from the prompt', async () => {
    const seen = join(fixture.project.dir, 'before-model.json');
    const patch = await fixture.project.script(
      'patch.sh',
      `cat > "${seen}"; printf '%s' '{"hookSpecificOutput":{"hookEventName":"BeforeModel","llm_request":{"settings":{"temperature":0.1}}}}'`,
    );
    const settings = await fixture.project.settings('hooks.json', {
      BeforeModel: [group([{ command: patch }])],
    });
    const instance = await open({ settings: [settings] });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('ok') });
    await instance.generateText({
      model,
      instructions: 'Be brief.',
      prompt: 'Hi',
      temperature: 0.9,
    });
    expect(model.doGenerateCalls[0]?.temperature).toBe(0.1);
    const input = JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: 'BeforeModel',
      session_id: instance.sessionId,
      llm_request: {
        version: 2,
        model: 'mock-model-id',
        contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'Hi' }] }],
        settings: { systemInstruction: 'Be brief.', temperature: 0.9 },
      },
    });
  });

  it('an in-process BeforeModel deny rejects the call with HookDeniedError', async () => {
    const instance = await open({
      hooks: [{ onCompletionCall: () => CompletionCallAction.deny('over budget') }],
    });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('x') });
    await expect(instance.generateText({ model, prompt: 'Hi' })).rejects.toBeInstanceOf(
      HookDeniedError,
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('BeforeToolSelection is enforced on the call: only the allowed tools are sent', async () => {
    const instance = await open({
      hooks: [
        {
          onToolSelection: () =>
            ToolSelectionAction.choose({ mode: 'required', allowedToolNames: ['read_file'] }),
        },
      ],
    });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('x') });
    const ran: unknown[] = [];
    await instance.generateText({
      model,
      tools: { read_file: readFileTool(ran), write_file: readFileTool(ran) },
      prompt: 'Hi',
    });
    const call = model.doGenerateCalls[0]!;
    expect(call.tools?.map((entry) => entry.name)).toEqual(['read_file']);
    expect(call.toolChoice).toEqual({ type: 'tool', toolName: 'read_file' });
  });

  it('an AfterModel replacement replaces the answer the app gets', async () => {
    const instance = await open({
      hooks: [
        {
          onModelOutput: (_context, event) => ({
            kind: 'replace',
            response: {
              ...event.response,
              content: { speaker: 'ai', blocks: [{ type: 'text', text: 'rewritten' }] },
            },
          }),
        },
      ],
    });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('original') });
    const result = await instance.generateText({ model, prompt: 'Hi' });
    expect(result.text).toBe('rewritten');
  });
});

describe('the turn around the call', () => {
  it('a Stop hook that blocks once: another round with the reason as the next user message', async () => {
    const stops: boolean[] = [];
    const instance = await open({
      hooks: [
        {
          onStop(_context, event) {
            stops.push(event.stopHookActive);
            return event.stopHookActive
              ? StopAction.continue()
              : StopAction.block('Also list the tests.');
          },
        },
      ],
    });
    const model = new MockLanguageModelV4({
      doGenerate: [textAnswer('first'), textAnswer('second')],
    });
    const result = await instance.generateText({ model, prompt: 'Summarise' });
    expect(stops).toEqual([false, true]);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(userTextsOf(model.doGenerateCalls[1]!)).toEqual(['Summarise', 'Also list the tests.']);
    expect(result.text).toBe('second');
    expect(result.responseMessages.map((message) => message.role)).toEqual([
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('a Stop hook that always blocks continues at most stopContinuationsPerTurn times', async () => {
    const reports: string[] = [];
    const instance = await open({
      hooks: [{ onStop: () => StopAction.block('again') }],
      onReport: (report) => reports.push(report.text),
      stopContinuationsPerTurn: 1,
    });
    const model = new MockLanguageModelV4({
      doGenerate: [textAnswer('1'), textAnswer('2'), textAnswer('3')],
    });
    await instance.generateText({ model, prompt: 'Go' });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(reports.some((text) => text.includes('stopContinuationsPerTurn: 1'))).toBe(true);
  });

  it('UserPromptSubmit adds context to the prompt, and its deny rejects before any model call', async () => {
    const instance = await open({
      hooks: [
        {
          onPromptSubmit: (_context, event) =>
            event.prompt.includes('password')
              ? PromptSubmitAction.deny('no secrets in prompts')
              : PromptSubmitAction.continue('The user is on the staging cluster.'),
        },
      ],
    });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('ok') });
    await instance.generateText({ model, prompt: 'Deploy' });
    expect(userTextsOf(model.doGenerateCalls[0]!)).toEqual([
      'Deploy The user is on the staging cluster.',
    ]);
    await expect(
      instance.generateText({ model, prompt: 'my password is hunter2' }),
    ).rejects.toMatchObject({ event: 'UserPromptSubmit', reason: 'no secrets in prompts' });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('aborting the call fires Interrupt with the prompt', async () => {
    const interrupts: string[] = [];
    const instance = await open({
      hooks: [
        {
          onInterrupt(_context, event) {
            interrupts.push(event.prompt);
            return { kind: 'continue' };
          },
        },
      ],
    });
    const controller = new AbortController();
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        controller.abort('user pressed stop');
        options.abortSignal?.throwIfAborted();
        return textAnswer('never');
      },
    });
    await expect(
      instance.generateText({ model, prompt: 'Long task', abortSignal: controller.signal }),
    ).rejects.toThrow();
    expect(interrupts).toEqual(['Long task']);
  });

  it('a provider error fires StopFailure', async () => {
    const failures: string[] = [];
    const instance = await open({
      hooks: [
        {
          onStopFailure(_context, event) {
            failures.push(event.error);
            return { kind: 'continue' };
          },
        },
      ],
    });
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('upstream exploded');
      },
    });
    await expect(instance.generateText({ model, prompt: 'Hi', maxRetries: 0 })).rejects.toThrow(
      'upstream exploded',
    );
    expect(failures).toEqual([expect.stringContaining('upstream exploded')]);
  });

  it('SessionStart context opens the first prompt; close fires SessionEnd; the transcript records the turn', async () => {
    const log: string[] = [];
    const instance = await open({
      transcript: true,
      hooks: [
        {
          onSessionStart: () => {
            log.push('start');
            return { kind: 'continue', additionalContext: 'Project: hookwire.' };
          },
          onSessionEnd: (context) => {
            log.push(`end ${context.session.sessionId}`);
            return { kind: 'continue' };
          },
        },
      ],
    });
    const model = new MockLanguageModelV4({ doGenerate: textAnswer('hi there') });
    await instance.generateText({ model, prompt: 'Hello' });
    expect(userTextsOf(model.doGenerateCalls[0]!)).toEqual(['Project: hookwire. Hello']);
    const path = instance.transcriptPath!;
    expect(path).toBe(
      join(fixture.project.dir, '.hookwire', 'sessions', `${instance.sessionId}.jsonl`),
    );
    await instance.close();
    expect(log).toEqual(['start', `end ${instance.sessionId}`]);
    const records = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; message?: { speaker: string } });
    expect(records.map((record) => record.message?.speaker ?? record.type)).toEqual([
      'session-start',
      'hook-run', // SessionStart
      'turn-start',
      'human',
      'model-call', // the step, for hookwire trace and hooks stats
      'ai',
      'turn-end',
      'hook-run', // SessionEnd
      'session-end',
    ]);
  });

  it("a Stop hook reading the transcript finds the turn's answer, not the one before", async () => {
    const seen: string[] = [];
    let path = '';
    const instance = await open({
      transcript: true,
      hooks: [
        {
          onStop: () => {
            const answers = readFileSync(path, 'utf8')
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line) as TranscriptRecord)
              .flatMap((record) =>
                record.type === 'message' && record.message.speaker === 'ai'
                  ? [textOf(record.message)]
                  : [],
              );
            seen.push(answers.at(-1) ?? '(none)');
            return { kind: 'continue' };
          },
        },
      ],
    });
    path = instance.transcriptPath!;
    for (const answer of ['first answer', 'second answer']) {
      const model = new MockLanguageModelV4({ doGenerate: textAnswer(answer) });
      await instance.generateText({ model, prompt: 'Hello' });
    }
    await instance.close();
    expect(seen).toEqual(['first answer', 'second answer']);
  });

  it('the transcript records every hook run, command and in-process alike, for hooks stats and the trace', async () => {
    const guard = await fixture.project.script(
      'guard.sh',
      'cat > /dev/null; echo "reading secrets is not allowed" >&2; exit 2',
    );
    const settings = await fixture.project.settings('hooks.json', {
      PreToolUse: [group([{ command: guard, name: 'guard' }], { matcher: 'read_file' })],
    });
    const instance = await open({
      transcript: true,
      settings: [settings],
      hooks: [{ name: 'annotator', onToolResult: () => ToolResultAction.keep('seen') }],
    });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('call-1', 'read_file', { path: '.env' }), textAnswer('ok')],
    });
    await instance.generateText({
      model,
      tools: { read_file: readFileTool([]) },
      prompt: 'Read .env',
      stopWhen: isStepCount(3),
    });
    await instance.close();
    const { records } = await readTranscript(instance.transcriptPath!);
    const stats = hookStats([{ sessionId: instance.sessionId, records }]);
    expect(
      stats.hooks.map((hook) => [
        hook.event,
        hook.hook,
        hook.kind,
        hook.runs,
        hook.decisions.deny,
        hook.decisions.context,
      ]),
    ).toEqual([
      ['PostToolUse', 'annotator', 'in-process', 1, 0, 1],
      ['PreToolUse', 'guard', 'command', 1, 1, 0],
    ]);
    expect(
      records.flatMap((record) =>
        record.type === 'hook-run' ? [[record.turn, record.run.toolCallId]] : [],
      ),
    ).toEqual([
      [1, 'call-1'],
      [1, 'call-1'],
    ]);
  });
});
