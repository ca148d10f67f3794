/**
 * Gemini CLI's model hooks end to end: `BeforeModel`, `AfterModel` and `BeforeToolSelection` hooks
 * written against the shapes of Gemini CLI's hook reference (`../shared/seeds/002_…`:
 * `llm_request.messages` with `role`/`content`, `config`, `toolConfig` with `AUTO|ANY|NONE` and
 * `allowedFunctionNames`; `llm_response.candidates[].content.parts`), placed in
 * `.gemini/settings.json` of a temporary project and driven by `hookwire run` on the scripted
 * model. The effects are asserted on the requests the model received (`--record-requests`) and on
 * the answer the run returned.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  readLog,
  runCli,
  runScripted,
  say,
  writeHookScript,
  writeJson,
  type Sandbox,
} from './support.ts';

/**
 * Gemini's reference BeforeModel hook: reads llm_request.messages, tags the first user message,
 * appends an instruction and lowers the temperature; logs the payload it got.
 */
const BEFORE_MODEL = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(input) + '\\n');
const messages = input.llm_request.messages.map((message, index) =>
  index === input.llm_request.messages.findIndex((m) => m.role === 'user')
    ? { ...message, content: message.content + ' [ticket ABC-1]' }
    : message,
);
messages.push({ role: 'user', content: 'Answer in one sentence.' });
console.log(JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'BeforeModel',
    llm_request: { messages, config: { ...input.llm_request.config, temperature: 0.2 } },
  },
}));
`;

/** Gemini's reference AfterModel redactor: rewrites candidates[].content.parts. */
const AFTER_MODEL = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const candidates = input.llm_response.candidates.map((candidate) => ({
  ...candidate,
  content: { ...candidate.content, parts: candidate.content.parts.map((part) => part.replace(/sk-[a-z0-9]+/g, '[REDACTED]')) },
}));
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { ...input.llm_response, candidates } } }));
`;

/** A BeforeToolSelection hook answering the toolConfig given as its argument; logs its payload. */
const TOOL_SELECTION = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(input) + '\\n');
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: JSON.parse(process.argv[3]) } }));
`;

async function geminiHooks(sandbox: Sandbox, hooks: Record<string, string>): Promise<void> {
  await writeJson(join(sandbox.project, '.gemini', 'settings.json'), {
    hooks: Object.fromEntries(
      Object.entries(hooks).map(([event, command]) => [
        event,
        [{ hooks: [{ type: 'command', command, timeout: 20000 }] }],
      ]),
    ),
  });
}

async function run(sandbox: Sandbox, turns: readonly unknown[], extra: readonly string[] = []) {
  const outcome = await runScripted(sandbox, turns, {
    prompt: 'Summarise the notes.',
    extra: ['--output-format', 'json', ...extra],
  });
  return { ...outcome, result: JSON.parse(outcome.stdout || '{}') as Record<string, unknown> };
}

/** The system message hookwire run's default system prompt becomes in Gemini's llm_request. */
const SYSTEM = {
  role: 'system',
  content: expect.stringContaining('You are a coding agent run by hookwire') as unknown,
};

interface Content {
  speaker: string;
  blocks: { type: string; text?: string; name?: string }[];
}

describe('Gemini CLI model hooks (.gemini/settings.json)', () => {
  it("BeforeModel gets Gemini's llm_request and its changed messages and config reach the model; tool calls and results in the history are kept", async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'before-model.jsonl');
    await geminiHooks(sandbox, {
      BeforeModel: await writeHookScript(sandbox.root, 'before.mjs', BEFORE_MODEL, [log]),
    });

    const outcome = await run(sandbox, [
      callTool('c1', 'shell', { command: 'echo notes' }),
      say('The notes say: notes.'),
    ]);

    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    // Gemini's shapes on the way in.
    const payloads = await readLog(log);
    expect(payloads[0]?.['llm_request']).toEqual({
      model: expect.any(String) as unknown,
      // hookwire run's system prompt comes first, as Gemini CLI's system instruction would.
      messages: [SYSTEM, { role: 'user', content: 'Summarise the notes.' }],
      config: {},
      toolConfig: {
        mode: 'AUTO',
        allowedFunctionNames: expect.arrayContaining([
          'run_shell_command',
          'read_file',
          'grep_search',
        ]) as unknown,
      },
    });
    // The second call's history: prompt, the model's tool call, its result (no text: not sent).
    expect((payloads[1]?.['llm_request'] as { messages: unknown }).messages).toEqual([
      SYSTEM,
      { role: 'user', content: 'Summarise the notes.' },
    ]);
    for (const request of outcome.requests) {
      const contents = request['contents'] as Content[];
      expect(contents[0]).toEqual({
        speaker: 'human',
        blocks: [{ type: 'text', text: 'Summarise the notes. [ticket ABC-1]' }],
      });
      expect(contents.at(-1)).toEqual({
        speaker: 'human',
        blocks: [{ type: 'text', text: 'Answer in one sentence.' }],
      });
      expect(request['settings']).toMatchObject({ temperature: 0.2 });
    }
    const second = outcome.requests[1]?.['contents'] as Content[];
    expect(second.map((content) => [content.speaker, content.blocks.map((b) => b.type)])).toEqual([
      ['human', ['text']],
      ['ai', ['tool_call']],
      ['tool', ['tool_response']],
      ['human', ['text']],
    ]);
    expect(outcome.result).toMatchObject({ result: 'The notes say: notes.' });
  });

  it("AfterModel rewrites candidates[].content.parts: the redacted text is the run's answer and what the model sees next", async () => {
    const sandbox = await createSandbox();
    await geminiHooks(sandbox, {
      AfterModel: await writeHookScript(sandbox.root, 'after.mjs', AFTER_MODEL),
    });

    const outcome = await run(
      sandbox,
      [
        {
          blocks: [
            { type: 'text', text: 'Your key is sk-abc123; checking.' },
            { type: 'tool_call', id: 'c1', name: 'shell', parameters: { command: 'echo ok' } },
          ],
          finishReason: 'tool_calls',
        },
        say('Done with sk-abc123.'),
        // Streamed, AfterModel sees each chunk (as in Gemini CLI): a key split across two chunks is
        // not seen whole. The blocking surface gives it the whole response.
      ],
      ['--streaming', 'off'],
    );

    expect(outcome.code).toBe(0);
    expect(outcome.result).toMatchObject({ result: 'Done with [REDACTED].' });
    // The redacted first answer kept its tool call (it ran) and is in the next request.
    const second = outcome.requests[1]?.['contents'] as Content[];
    expect(second[1]).toMatchObject({
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'Your key is [REDACTED]; checking.' },
        { type: 'tool_call', name: 'shell' },
      ],
    });
    expect(JSON.stringify(second)).not.toContain('sk-abc123');
    expect(JSON.stringify(second[2])).toContain('ok');
  });

  it('BeforeToolSelection toolConfig: NONE sends no tools; allowedFunctionNames (Gemini names, any case) restricts them', async () => {
    for (const [toolConfig, expected] of [
      [{ mode: 'NONE' }, []],
      [{ mode: 'AUTO', allowedFunctionNames: ['Read_File', 'grep_search'] }, ['grep', 'read_file']],
      [{ mode: 'ANY', allowedFunctionNames: ['run_shell_command'] }, ['shell']],
    ] as const) {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'selection.jsonl');
      await geminiHooks(sandbox, {
        BeforeToolSelection: await writeHookScript(sandbox.root, 'select.mjs', TOOL_SELECTION, [
          log,
          JSON.stringify(toolConfig),
        ]),
      });

      const outcome = await run(sandbox, [say('ok')]);

      expect(outcome.code).toBe(0);
      const tools = (outcome.requests[0]?.['tools'] as { name: string }[] | undefined) ?? [];
      expect(tools.map((tool) => tool.name).sort()).toEqual(expected);
      if (toolConfig.mode === 'ANY')
        expect(outcome.requests[0]?.['settings']).toMatchObject({
          toolChoice: { mode: 'required', allowedToolNames: ['shell'] },
        });
      const [payload] = await readLog(log);
      expect(payload?.['llm_request']).toMatchObject({
        messages: [SYSTEM, { role: 'user', content: 'Summarise the notes.' }],
        toolConfig: {
          mode: 'AUTO',
          allowedFunctionNames: expect.arrayContaining([
            'run_shell_command',
            'write_file',
          ]) as unknown,
        },
      });
    }
  });

  it('hooks import --from gemini carries the model hooks: the imported file restricts the tools the same way', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'selection.jsonl');
    const toolConfig = { mode: 'AUTO', allowedFunctionNames: ['grep_search', 'read_file'] };
    await geminiHooks(sandbox, {
      BeforeToolSelection: await writeHookScript(sandbox.root, 'select.mjs', TOOL_SELECTION, [
        log,
        JSON.stringify(toolConfig),
      ]),
    });
    const target = join(sandbox.project, '.hookwire', 'settings.json');
    await mkdir(join(sandbox.project, '.hookwire'), { recursive: true });
    const imported = await runCli(
      ['hooks', 'import', '--from', 'gemini', '--write', target, '--cwd', sandbox.project],
      { env: sandbox.env },
    );
    expect(imported.code).toBe(0);
    const written = JSON.parse(await readFile(target, 'utf8')) as {
      hooks: Record<string, { dialect?: string }[]>;
    };
    expect(written.hooks['BeforeToolSelection']?.[0]?.dialect).toBe('gemini');
    await rm(join(sandbox.project, '.gemini'), { recursive: true });

    const outcome = await run(sandbox, [say('ok')]);

    expect(outcome.code).toBe(0);
    const tools = (outcome.requests[0]?.['tools'] as { name: string }[] | undefined) ?? [];
    expect(tools.map((tool) => tool.name).sort()).toEqual(['grep', 'read_file']);
    // Still Gemini's shapes for the imported hook.
    const [payload] = await readLog(log);
    expect(payload?.['llm_request']).toHaveProperty('toolConfig');
  });
});
