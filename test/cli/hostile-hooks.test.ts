/**
 * Hooks that answer too deep, or print something other than one JSON object, through the real
 * `hookwire` process and real hook processes: a failClosed guard denies (and the guarded tool
 * does not run), an advisory hook warns, and nothing crashes.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  jsonLines,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const STACK_FRAME = /\n\s+at /;
const PAYLOAD = JSON.stringify({
  tool_name: 'shell',
  tool_call_id: 'call_1',
  tool_input: { command: 'touch ran.txt' },
});

/** Allows the call, rewriting its input to a value nested 10,000 levels (built as text: JSON.stringify cannot). */
const DEEP_ANSWER_HOOK = `
const levels = 10000;
process.stdout.write('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":' + '{"a":'.repeat(levels) + '1' + '}'.repeat(levels) + '}}');
`;

/** Logs a line, then prints its deny answer: a guard must print one JSON object, so this denies too. */
const CHATTY_DENY_HOOK = `
console.log('checking the command...');
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no shell today' } }));
`;

async function guard(sandbox: Sandbox, source: string, failClosed: boolean): Promise<void> {
  const command = await writeHookScript(sandbox.root, 'guard.mjs', source);
  await writeJson(
    join(sandbox.project, '.hookwire', 'settings.json'),
    settingsWith({ PreToolUse: [{ command, name: 'guard', failClosed }] }),
  );
}

async function fire(sandbox: Sandbox): Promise<Record<string, unknown>> {
  const outcome = await runCli(['hooks', 'fire', 'PreToolUse', '--cwd', sandbox.project], {
    env: sandbox.env,
    input: PAYLOAD,
  });
  expect(outcome.stderr).toBe('');
  expect(outcome.code).toBe(0);
  return JSON.parse(outcome.stdout) as Record<string, unknown>;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

describe('a hook answer nested 10,000 levels', () => {
  it('hooks fire: a failClosed guard denies, naming the depth limit', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, DEEP_ANSWER_HOOK, true);
    const result = await fire(sandbox);
    expect(result['decision']).toBe('deny');
    expect(result['reason']).toMatch(
      /^hook "guard" \(PreToolUse\) printed output that does not decode: JSON nested deeper than the limit of 100 levels \(at character \d+\); it printed .*; it is marked failClosed, so the action it guards is denied$/,
    );
    expect(result['hooks']).toMatchObject([{ status: 'failed-closed' }]);
  });

  it('hooks fire: an advisory hook is a warning naming the limit, and its rewrite is ignored', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, DEEP_ANSWER_HOOK, false);
    const result = await fire(sandbox);
    expect(result['decision']).toBe('allow');
    expect(result['hookSpecificOutput']).toEqual({});
    expect(result['warnings']).toEqual([
      expect.stringMatching(/nested deeper than the limit of 100 levels/),
    ]);
  });

  it('run --output-format stream-json: the guard denies, the tool does not run, every line is JSON', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, DEEP_ANSWER_HOOK, true);
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('call_1', 'shell', { command: 'touch ran.txt' }),
      say('done'),
    ]);
    const outcome = await runCli(
      [
        'run',
        'go',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'stream-json',
      ],
      { env: sandbox.env },
    );
    expect(outcome.stderr).not.toMatch(STACK_FRAME);
    expect(outcome.code).toBe(0);
    const lines = jsonLines(outcome.stdout);
    expect(lines.find((line) => line['type'] === 'tool-result')).toMatchObject({
      toolCallId: 'call_1',
      error: expect.stringMatching(
        /nested deeper than the limit of 100 levels.*failClosed/,
      ) as string,
    });
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'completed' });
    expect(await exists(join(sandbox.project, 'ran.txt'))).toBe(false);
  });
});

describe("a failClosed guard's stdout", () => {
  it('a log line before the deny JSON denies, quoting the start of what it printed', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, CHATTY_DENY_HOOK, true);
    const result = await fire(sandbox);
    expect(result['decision']).toBe('deny');
    expect(result['reason']).toMatch(
      /^hook "guard" \(PreToolUse\) printed something other than one JSON object \(a guard's stdout must be exactly one JSON object or nothing\): it printed "checking the command\.\.\.\\n\{.*"…; it is marked failClosed/,
    );
  });

  it.each([
    ['an array', `process.stdout.write('[{"decision":"allow"}]')`],
    ['two objects', `process.stdout.write('{"decision":"allow"}\\n{"decision":"allow"}')`],
    [
      'a string literal',
      `process.stdout.write(JSON.stringify(JSON.stringify({ decision: 'allow' })))`,
    ],
    ['plain text', `process.stdout.write('all good')`],
  ])('%s denies', async (_name, source) => {
    const sandbox = await createSandbox();
    await guard(sandbox, source, true);
    const result = await fire(sandbox);
    expect(result['decision']).toBe('deny');
    expect(result['reason']).toMatch(/it printed ".*failClosed/);
  });

  it('exactly one JSON object, or nothing, is read as before', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, `process.stdout.write('  {"decision":"allow"}\\n')`, true);
    expect((await fire(sandbox))['decision']).toBe('allow');
    await guard(sandbox, '', true);
    expect((await fire(sandbox))['decision']).toBe('allow');
  });

  it('run: the chatty guard denies, so the shell call does not run', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, CHATTY_DENY_HOOK, true);
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('call_1', 'shell', { command: 'touch ran.txt' }),
      say('done'),
    ]);
    const outcome = await runCli(
      ['run', 'go', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      {
        env: sandbox.env,
      },
    );
    expect(outcome.code).toBe(0);
    expect(await exists(join(sandbox.project, 'ran.txt'))).toBe(false);
  });

  it('an advisory hook keeps the plain-text rules: its log line is read as text, and the call is allowed', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, CHATTY_DENY_HOOK, false);
    const result = await fire(sandbox);
    expect(result['decision']).toBe('allow');
    expect(result['hooks']).toMatchObject([{ status: 'ok' }]);
  });
});

describe('a payload nested 10,000 levels', () => {
  it('hooks fire --input: exit 1 with one line naming the limit', async () => {
    const sandbox = await createSandbox();
    await guard(sandbox, '', true);
    const deep = `{"tool_name":"shell","tool_call_id":"c","tool_input":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const outcome = await runCli(['hooks', 'fire', 'PreToolUse', '--cwd', sandbox.project], {
      env: sandbox.env,
      input: deep,
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /^hookwire: The payload in stdin nests deeper than the limit of 100 levels \(at line 1, column \d+\)/,
    );
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
  });
});
