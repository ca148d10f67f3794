import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  createSandbox,
  readLog,
  runCli,
  settingsWith,
  writeHookScript,
  writeJson,
  type Sandbox,
} from './support.ts';

const TOOL_PAYLOAD = { tool_name: 'shell', tool_input: { command: 'ls' }, tool_call_id: 'call_1' };

async function projectSettings(sandbox: Sandbox, settings: unknown): Promise<void> {
  await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), settings);
}

describe('hookwire hooks fire', () => {
  it('accepts the example payload its own error message suggests, filling in tool_call_id', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'fired.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    await projectSettings(sandbox, settingsWith({ PreToolUse: [logger] }));
    const invalid = await runCli(['hooks', 'fire', 'PreToolUse', '--cwd', sandbox.project], {
      env: sandbox.env,
      input: '{not json',
    });
    expect(invalid.code).toBe(1);
    const example = /e\.g\. (\{.*\})\.$/m.exec(invalid.stderr.trim())?.[1] ?? '';
    expect(example).toBe('{"tool_name": "shell", "tool_input": {"command": "ls"}}');

    const outcome = await runCli(['hooks', 'fire', 'PreToolUse', '--cwd', sandbox.project], {
      env: sandbox.env,
      input: example,
    });
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ event: 'PreToolUse', decision: 'allow' });
    const [payload] = await readLog(log);
    expect(payload).toMatchObject({
      tool_name: 'shell',
      tool_input: { command: 'ls' },
      tool_call_id: expect.stringMatching(/^fire-call-/) as unknown,
    });
  });

  it('prints the combined outcome of an allowing hook as one JSON object and exits 0', async () => {
    const sandbox = await createSandbox();
    const allow = await writeHookScript(
      sandbox.root,
      'allow.mjs',
      `process.stdout.write(JSON.stringify({ decision: 'allow', systemMessage: 'checked', hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'the user prefers short answers' } }));`,
    );
    await projectSettings(
      sandbox,
      settingsWith({ UserPromptSubmit: [{ command: allow, name: 'allow' }] }),
    );
    const input = await writeJson(join(sandbox.root, 'payload.json'), { prompt: 'hello' });

    const outcome = await runCli(
      ['hooks', 'fire', 'UserPromptSubmit', '--cwd', sandbox.project, '--input', input],
      { env: sandbox.env },
    );

    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const result = JSON.parse(outcome.stdout) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(
      expect.arrayContaining([
        'event',
        'decision',
        'reason',
        'continue',
        'stopReason',
        'systemMessage',
        'additionalContext',
        'suppressOutput',
        'hookSpecificOutput',
        'hooks',
      ]),
    );
    expect(result).toMatchObject({
      event: 'UserPromptSubmit',
      decision: 'allow',
      reason: null,
      continue: true,
      stopReason: null,
      systemMessage: 'checked',
      additionalContext: 'the user prefers short answers',
      suppressOutput: false,
    });
    expect(result['hooks']).toEqual([
      {
        name: 'allow',
        command: allow,
        kind: 'command',
        target: allow,
        exitCode: 0,
        signal: null,
        durationMs: expect.any(Number) as number,
        status: 'ok',
        stdoutTruncated: false,
        stderrTruncated: false,
      },
    ]);
  });

  it('reports a deny when a hook exits 2, with stderr as the reason, and still exits 0', async () => {
    const sandbox = await createSandbox();
    const deny = await writeHookScript(
      sandbox.root,
      'deny.mjs',
      `process.stdout.write('ignored'); process.stderr.write('no shell today'); process.exit(2);`,
    );
    await projectSettings(sandbox, settingsWith({ PreToolUse: [{ command: deny, name: 'deny' }] }));

    const outcome = await runCli(
      ['hooks', 'fire', 'PreToolUse', '--cwd', sandbox.project, '--input', '-'],
      {
        env: sandbox.env,
        input: JSON.stringify(TOOL_PAYLOAD),
      },
    );

    expect(outcome.code).toBe(0);
    const result = JSON.parse(outcome.stdout) as {
      decision: string;
      reason: string;
      hooks: { status: string; exitCode: number }[];
    };
    expect(result.decision).toBe('deny');
    expect(result.reason).toBe('no shell today');
    expect(result.hooks).toMatchObject([{ status: 'blocked', exitCode: 2 }]);
  });

  it('reads a piped payload without --input and completes the base fields it lacks', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'payloads.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    await projectSettings(sandbox, settingsWith({ BeforeAgent: [logger] }));

    const outcome = await runCli(['hooks', 'fire', 'BeforeAgent', '--cwd', sandbox.project], {
      env: sandbox.env,
      input: JSON.stringify({ prompt: 'hello' }),
    });

    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ event: 'BeforeAgent', decision: 'allow' });
    const [payload] = await readLog(log);
    expect(payload).toMatchObject({
      prompt: 'hello',
      hook_event_name: 'BeforeAgent',
      cwd: sandbox.project,
      session_id: expect.any(String) as string,
      transcript_path: expect.any(String) as string,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });
  });

  it('runs only the hooks whose matcher matches the payload', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'payloads.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    await projectSettings(
      sandbox,
      settingsWith({ PreToolUse: [logger] }, { PreToolUse: { matcher: 'Bash' } }),
    );

    const outcome = await runCli(
      ['hooks', 'fire', 'PreToolUse', '--cwd', sandbox.project, '--input', '-'],
      {
        env: sandbox.env,
        input: JSON.stringify({ ...TOOL_PAYLOAD, tool_name: 'BashOutput' }),
      },
    );

    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ decision: 'allow', hooks: [] });
    expect(await readLog(log)).toEqual([]);
  });

  it('exits 1 naming the line and column when the payload is not valid JSON', async () => {
    const sandbox = await createSandbox();
    const input = join(sandbox.root, 'bad.json');
    await writeFile(input, '{\n  "prompt": "hi",\n  oops\n}\n');

    const outcome = await runCli(
      ['hooks', 'fire', 'UserPromptSubmit', '--cwd', sandbox.project, '--input', input],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain(
      `The payload in ${input} is not valid JSON at line 3, column 3`,
    );
  });

  it('exits 1 when the payload is JSON but not an object', async () => {
    const sandbox = await createSandbox();

    const outcome = await runCli(
      ['hooks', 'fire', 'Stop', '--cwd', sandbox.project, '--input', '-'],
      { env: sandbox.env, input: '[1, 2]' },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('is an array; it must be one JSON object');
  });

  it('exits 1 listing the valid events for an unknown event', async () => {
    const sandbox = await createSandbox();

    const outcome = await runCli(['hooks', 'fire', 'PreToolUze', '--cwd', sandbox.project], {
      env: sandbox.env,
    });

    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('Unknown event "PreToolUze"');
    expect(outcome.stderr).toContain('SessionStart, UserPromptSubmit, BeforeModel');
    expect(outcome.stderr).toContain('BeforeTool (PreToolUse)');
  });

  it('exits 1 when the payload does not match the event', async () => {
    const sandbox = await createSandbox();

    const outcome = await runCli(
      ['hooks', 'fire', 'PreToolUse', '--cwd', sandbox.project, '--input', '-'],
      {
        env: sandbox.env,
        input: JSON.stringify({ tool_name: 42 }),
      },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('tool_name');
  });

  it('exits 1 printing the settings issues when the configuration is invalid', async () => {
    const sandbox = await createSandbox();
    await projectSettings(sandbox, {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 'soon' }] }] },
    });

    const outcome = await runCli(['hooks', 'fire', 'Stop', '--cwd', sandbox.project], {
      env: sandbox.env,
    });

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('hooks.Stop[0].hooks[0].timeout');
  });
});
