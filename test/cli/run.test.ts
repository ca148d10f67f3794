import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  callTool,
  createSandbox,
  jsonLines,
  readLog,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const MESSAGE_HOOK = `process.stdout.write(JSON.stringify({ systemMessage: 'policy loaded' }));`;

async function scriptIn(sandbox: Sandbox, turns: readonly unknown[]): Promise<string> {
  return writeScript(join(sandbox.root, 'model.jsonl'), turns);
}

describe('hookwire run', () => {
  it('prints the final answer on stdout and hook messages on stderr in text format', async () => {
    const sandbox = await createSandbox();
    const hook = await writeHookScript(sandbox.root, 'message.mjs', MESSAGE_HOOK);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ UserPromptSubmit: [{ command: hook, name: 'policy' }] }),
    );
    const script = await scriptIn(sandbox, [say('All done.')]);

    const outcome = await runCli(
      ['run', 'hello', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('All done.\n');
    expect(outcome.stderr).toContain('policy loaded');
  });

  it('reads the prompt from stdin when no argument is given', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ UserPromptSubmit: [logger] }),
    );
    const script = await scriptIn(sandbox, [say('ok')]);

    const outcome = await runCli(
      ['run', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env, input: 'prompt from a pipe\n' },
    );

    expect(outcome.code).toBe(0);
    expect(await readLog(log)).toMatchObject([{ prompt: 'prompt from a pipe' }]);
  });

  it('prints one result object in json format, pointing at the transcript it wrote', async () => {
    const sandbox = await createSandbox();
    const script = await scriptIn(sandbox, [
      callTool('call_1', 'glob', { pattern: '*' }),
      say('Nothing here.'),
    ]);

    const outcome = await runCli(
      [
        'run',
        'look',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'json',
      ],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(0);
    const result = JSON.parse(outcome.stdout) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual([
      'sessionId',
      'status',
      'result',
      'modelCalls',
      'transcriptPath',
    ]);
    expect(result).toMatchObject({ status: 'completed', result: 'Nothing here.', modelCalls: 2 });
    expect(result['transcriptPath']).toBe(
      join(sandbox.project, '.hookwire', 'sessions', `${String(result['sessionId'])}.jsonl`),
    );
    expect(await readFile(String(result['transcriptPath']), 'utf8')).toContain('"session-start"');
  });

  it('streams one JSON object per line for the session, turn, steps, chunks, tool calls, results and hook runs, then the result', async () => {
    const sandbox = await createSandbox();
    const hook = await writeHookScript(sandbox.root, 'message.mjs', MESSAGE_HOOK);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PreToolUse: [{ command: hook, name: 'pre' }] }),
    );
    const script = await scriptIn(sandbox, [
      callTool('call_1', 'glob', { pattern: '*' }),
      say('Nothing here at all.'),
    ]);

    const outcome = await runCli(
      [
        'run',
        'look',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'stream-json',
      ],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(0);
    const lines = jsonLines(outcome.stdout);
    const types = new Set(lines.map((line) => line['type']));
    for (const type of [
      'session',
      'turn-start',
      'step-start',
      'text-delta',
      'tool-call-delta',
      'model-response',
      'tool-call',
      'tool-result',
      'hook-run',
      'hook-report',
      'turn-end',
    ]) {
      expect(types).toContain(type);
    }
    expect(types).not.toContain('final');
    expect(lines[0]).toMatchObject({ type: 'session', source: 'startup' });
    expect(lines.find((line) => line['type'] === 'hook-run')).toMatchObject({
      event: 'PreToolUse',
      name: 'pre',
      status: 'ok',
      exitCode: 0,
    });
    expect(lines.at(-1)).toEqual({
      type: 'result',
      sessionId: lines[0]?.['sessionId'],
      status: 'completed',
      result: 'Nothing here at all.',
      modelCalls: 2,
      transcriptPath: lines[0]?.['transcriptPath'],
    });
  });

  it('exits 1 with status failed when the script runs out of lines', async () => {
    const sandbox = await createSandbox();
    const script = await scriptIn(sandbox, [callTool('call_1', 'glob', { pattern: '*' })]);

    const outcome = await runCli(
      [
        'run',
        'look',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'json',
      ],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    const result = JSON.parse(outcome.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'failed', modelCalls: 2 });
    expect(String(result['error'])).toContain('no line for call 2');
  });

  it('exits 1 with status stopped when a hook stops the run, saying why on stderr', async () => {
    const sandbox = await createSandbox();
    const stopper = await writeHookScript(
      sandbox.root,
      'stop.mjs',
      `process.stdout.write(JSON.stringify({ continue: false, stopReason: 'quota reached' }));`,
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ UserPromptSubmit: [stopper] }),
    );
    const script = await scriptIn(sandbox, [say('unreached')]);

    const outcome = await runCli(
      ['run', 'go', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('the run ended stopped');
    expect(outcome.stderr).toContain('quota reached');
  });

  it('appends every request the model receives, after hooks applied, as v2 request envelopes', async () => {
    const sandbox = await createSandbox();
    const patch = await writeHookScript(
      sandbox.root,
      'patch.mjs',
      `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { settings: { temperature: 0.25 } } } }));`,
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ BeforeModel: [patch] }),
    );
    const script = await scriptIn(sandbox, [
      callTool('call_1', 'glob', { pattern: '*' }),
      say('done'),
    ]);
    const record = join(sandbox.root, 'requests.jsonl');

    const outcome = await runCli(
      [
        'run',
        'list files',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--record-requests',
        record,
      ],
      { env: sandbox.env },
    );

    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const requests = await readLog(record);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request).toMatchObject({
        version: 2,
        model: 'scripted',
        settings: { temperature: 0.25 },
      });
      expect((request['tools'] as { name: string }[]).map((tool) => tool.name)).toEqual([
        'read_file',
        'write_file',
        'edit_file',
        'glob',
        'grep',
        'shell',
        'agent',
      ]);
    }
    expect(requests[0]?.['contents']).toEqual([
      { speaker: 'human', blocks: [{ type: 'text', text: 'list files' }] },
    ]);
    expect((requests[1]?.['contents'] as unknown[]).length).toBe(3);
  });

  it('resumes a session by id: SessionStart says resume and the model sees the earlier turns', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ SessionStart: [logger] }),
    );
    const first = await writeScript(join(sandbox.root, 'first.jsonl'), [say('My name is Ada.')]);
    const second = await writeScript(join(sandbox.root, 'second.jsonl'), [
      say('You asked who I am.'),
    ]);
    const record = join(sandbox.root, 'requests.jsonl');

    const opened = await runCli(
      [
        'run',
        'who are you?',
        '--model',
        `scripted:${first}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'json',
      ],
      { env: sandbox.env },
    );
    const { sessionId } = JSON.parse(opened.stdout) as { sessionId: string };
    const resumed = await runCli(
      [
        'run',
        'what did I ask?',
        '--model',
        `scripted:${second}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'json',
        '--resume',
        sessionId,
        '--record-requests',
        record,
      ],
      { env: sandbox.env },
    );

    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      sessionId,
      status: 'completed',
      result: 'You asked who I am.',
    });
    expect(await readLog(log)).toMatchObject([
      { source: 'startup', session_id: sessionId },
      { source: 'resume', session_id: sessionId },
    ]);
    const [request] = await readLog(record);
    expect(request?.['contents']).toEqual([
      { speaker: 'human', blocks: [{ type: 'text', text: 'who are you?' }] },
      { speaker: 'ai', blocks: [{ type: 'text', text: 'My name is Ada.' }] },
      { speaker: 'human', blocks: [{ type: 'text', text: 'what did I ask?' }] },
    ]);
  });

  it('exits 1 naming the session when --resume names no transcript', async () => {
    const sandbox = await createSandbox();
    const script = await scriptIn(sandbox, [say('unreached')]);

    const outcome = await runCli(
      [
        'run',
        'go',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--resume',
        'no-such-session',
      ],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('no-such-session');
  });

  it('exits 1 printing every settings issue before anything runs', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      hooks: { Stop: [{ matcher: 'x', hooks: [] }], Nope: [] },
    });
    const script = await scriptIn(sandbox, [say('unreached')]);

    const outcome = await runCli(
      ['run', 'go', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(/Invalid hook settings \(\d+ issues\)/);
    expect(outcome.stderr).toContain('hooks.Nope');
  });

  it('exits 1 with a one-line error when the provider key is missing', async () => {
    const sandbox = await createSandbox();
    const env = { ...sandbox.env };
    delete env['OPENAI_API_KEY'];
    delete env['OPENAI_BASE_URL'];

    const outcome = await runCli(
      ['run', 'go', '--model', 'openai:gpt-4o-mini', '--cwd', sandbox.project],
      { env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    expect(outcome.stderr).toContain('OPENAI_API_KEY');
  });

  it('exits 1 listing the providers, scripted included, for an unknown model provider', async () => {
    const sandbox = await createSandbox();

    const outcome = await runCli(['run', 'go', '--model', 'acme:big', '--cwd', sandbox.project], {
      env: sandbox.env,
    });

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('Unknown model provider "acme"');
    expect(outcome.stderr).toContain('anthropic');
    expect(outcome.stderr).toContain('scripted:FILE');
  });

  it('exits 1 asking for a prompt when neither the argument nor stdin gives one', async () => {
    const sandbox = await createSandbox();
    const script = await scriptIn(sandbox, [say('unreached')]);

    const outcome = await runCli(
      ['run', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env, input: '\n' },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('The prompt read from stdin is empty');
  });

  it('exits 1 explaining the flag when --max-model-calls is not a positive whole number', async () => {
    const sandbox = await createSandbox();
    const script = await scriptIn(sandbox, [say('unreached')]);

    const outcome = await runCli(
      [
        'run',
        'go',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--max-model-calls',
        '0',
      ],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('--max-model-calls must be a positive whole number');
  });

  it('reports a malformed scripted-model line with its file, line number and reason', async () => {
    const sandbox = await createSandbox();
    const script = join(sandbox.root, 'model.jsonl');
    await writeFile(
      script,
      `${JSON.stringify(say('fine'))}\n{"blocks": [{"type": "text", "text": "unterminated"\n`,
    );
    const outcome = await runCli(
      ['run', 'go', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(
      new RegExp(
        `^hookwire: The script of --model scripted:\\S+ is not valid: ${script.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: .+; fix that line`,
      ),
    );
    expect(outcome.stderr).not.toContain('cannot be read');
  });

  it('resolves scripted:FILE against the invocation directory, not --cwd', async () => {
    const sandbox = await createSandbox();
    await scriptIn(sandbox, [say('from the invocation directory')]);

    const outcome = await runCli(
      ['run', 'go', '--model', 'scripted:model.jsonl', '--cwd', sandbox.project],
      { env: sandbox.env, cwd: sandbox.root },
    );

    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('from the invocation directory\n');
  });

  it('prints the version from package.json', async () => {
    const outcome = await runCli(['--version']);
    const manifest = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };

    expect(outcome).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });
});
