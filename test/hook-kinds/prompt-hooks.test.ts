/**
 * `type: "prompt"` hooks: a model judges the event. On the scripted model (what it was asked,
 * how its verdict is read) and through the real OpenAI adapter against a loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScriptedModel,
  type ScriptedTurn,
} from '../../src/adapters/testing/scripted-model.ts';
import { createOpenAIChatModel } from '../../src/adapters/providers/openai/index.ts';
import { runHookGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import {
  PROMPT_HOOK_SYSTEM_INSTRUCTION,
  createPromptHookRunner,
  decodePromptVerdict,
} from '../../src/hook-kinds/prompt/index.ts';
import type { LanguageModel } from '../../src/content/index.ts';
import type { HookEventName } from '../../src/events/index.ts';
import type { PromptHookConfig } from '../../src/hook-kinds/prompt/index.ts';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts';
import { completion } from '../fixtures/openai/chat-scenarios.ts';
import { groupOf, promptHook, toolPayload, kindStates } from './support.ts';

const commands = createDirectRunner();
afterAll(async () => {
  await commands.close();
});

const says = (text: string): ScriptedTurn => ({
  blocks: [{ type: 'text', text }],
  finishReason: 'stop',
});

function fire(
  model: LanguageModel,
  hook: PromptHookConfig,
  event: HookEventName = 'PreToolUse',
  payload: Record<string, unknown> = toolPayload('allow'),
  resolveModel?: (spec: string) => Promise<LanguageModel>,
) {
  const prompt = createPromptHookRunner({
    model,
    ...(resolveModel === undefined ? {} : { resolveModel }),
  });
  return runHookGroup(groupOf(event, [hook]), payload, {
    runner: commands,
    projectDir: '/tmp',
    sessionId: 'session-1',
    kinds: kindStates({ prompt }),
  });
}

describe('prompt hooks on the scripted model', () => {
  it('asks the model with $ARGUMENTS replaced by the payload JSON, and ok: false denies with the reason', async () => {
    const model = createScriptedModel([says('{"ok": false, "reason": "rm -rf is not allowed"}')], {
      keepRequests: true,
    });
    const run = await fire(model, promptHook('Is this tool call safe? $ARGUMENTS'));
    expect(run.combined.denyReasons).toEqual(['rm -rf is not allowed']);
    expect(run.outcomes[0]?.record.status).toBe('blocked');
    const request = model.requests[0];
    expect(request?.model).toBe('scripted');
    expect(request?.settings?.systemInstruction).toBe(PROMPT_HOOK_SYSTEM_INSTRUCTION);
    expect(request?.contents).toEqual([
      {
        speaker: 'human',
        blocks: [
          { type: 'text', text: `Is this tool call safe? ${JSON.stringify(toolPayload('allow'))}` },
        ],
      },
    ]);
  });

  it('appends the payload when the prompt has no $ARGUMENTS, and ok: true is no opinion', async () => {
    const model = createScriptedModel([says('Sure.\n```json\n{"ok": true}\n```')], {
      keepRequests: true,
    });
    const run = await fire(model, promptHook('Judge it.'));
    expect(run.combined.denied).toBe(false);
    expect(run.outcomes[0]?.record.status).toBe('ok');
    const text = model.requests[0]?.contents[0]?.blocks[0];
    expect(text).toEqual({
      type: 'text',
      text: `Judge it.\n\nARGUMENTS: ${JSON.stringify(toolPayload('allow'))}`,
    });
  });

  it('blocks a Stop when not ok, with the reason', async () => {
    const model = createScriptedModel([says('{"ok": false, "reason": "tests were not run"}')]);
    const payload = {
      session_id: 's',
      transcript_path: '',
      cwd: '/tmp',
      hook_event_name: 'Stop',
      timestamp: '2026-12-01T00:00:00.000Z',
      stop_hook_active: false,
      prompt: 'fix it',
      prompt_response: 'done',
    };
    const run = await fire(model, promptHook('Is the work done? $ARGUMENTS'), 'Stop', payload);
    expect(run.combined.denyReasons).toEqual(['tests were not run']);
  });

  it('sends a bare model id through the run model, and resolves PROVIDER:MODEL through the host', async () => {
    const runModel = createScriptedModel([says('{"ok": true}')], { keepRequests: true });
    await fire(runModel, promptHook('x', { model: 'small-judge' }));
    expect(runModel.requests[0]?.model).toBe('small-judge');
    const other = createScriptedModel([says('{"ok": false, "reason": "other says no"}')], {
      modelId: 'other',
    });
    const asked: string[] = [];
    const run = await fire(
      runModel,
      promptHook('x', { model: 'scripted:other.jsonl' }),
      'PreToolUse',
      toolPayload('allow'),
      (spec) => {
        asked.push(spec);
        return Promise.resolve(other);
      },
    );
    expect(asked).toEqual(['scripted:other.jsonl']);
    expect(run.combined.denyReasons).toEqual(['other says no']);
  });

  it('counts an answer that is not the verdict object, or a model error, as a failed hook', async () => {
    const prose = await fire(createScriptedModel([says('I think it is fine')]), promptHook('x'));
    expect(prose.combined.warnings[0]).toContain('its answer is not a JSON object');
    const guard = await fire(
      createScriptedModel([says('{"verdict": "ok"}')]),
      promptHook('x', { failClosed: true }),
    );
    expect(guard.outcomes[0]?.record.status).toBe('failed-closed');
    expect(guard.combined.denyReasons[0]).toContain('its answer has no boolean "ok"');
    const failing = await fire(createScriptedModel([]), promptHook('x'));
    expect(failing.outcomes[0]?.record.status).toBe('error');
    expect(failing.combined.warnings[0]).toContain('could not ask its model');
  });

  it('fails at the deadline', async () => {
    const slow = createScriptedModel([{ ...says('{"ok": true}'), delayMs: 5000 }]);
    // The timeout warning is the evidence the deadline fired before the 5 s answer; no
    // wall-clock bound, which a loaded machine can miss.
    const run = await fire(slow, promptHook('x', { timeoutMs: 100 }));
    expect(run.outcomes[0]?.record.status).toBe('timeout');
    expect(run.combined.warnings).toEqual(['hook "judge" (PreToolUse) timed out after 100ms']);
  });

  it('decodePromptVerdict reads the object from prose or fences and rejects other shapes', () => {
    expect(decodePromptVerdict('{"ok":true}')).toEqual({ ok: true, verdict: { ok: true } });
    expect(decodePromptVerdict('Here: {"ok":false,"reason":"r"} done')).toEqual({
      ok: true,
      verdict: { ok: false, reason: 'r' },
    });
    expect(decodePromptVerdict('{"ok":"yes"}').ok).toBe(false);
    expect(decodePromptVerdict('{"ok":false,"reason":3}').ok).toBe(false);
    expect(decodePromptVerdict('[]').ok).toBe(false);
  });
});

describe('prompt hooks through a provider adapter on a loopback server', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('judges through the OpenAI Chat Completions adapter', async () => {
    server.reply({
      type: 'json',
      body: completion({ content: '{"ok": false, "reason": "no network calls"}' }, 'stop'),
    });
    const model = createOpenAIChatModel({
      model: 'gpt-judge',
      apiKey: 'test-key',
      baseURL: server.baseURL,
    });
    const run = await fire(model, promptHook('Allowed? $ARGUMENTS'));
    expect(run.combined.denyReasons).toEqual(['no network calls']);
    const body = server.lastRequest().body as {
      model: string;
      messages: { role: string; content: unknown }[];
    };
    expect(body.model).toBe('gpt-judge');
    expect(body.messages[0]).toMatchObject({ role: 'system' });
    expect(JSON.stringify(body.messages[1])).toContain('Allowed? ');
    expect(JSON.stringify(body.messages[1])).toContain('tool_call_id');
  });
});
