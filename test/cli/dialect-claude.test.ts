/**
 * Claude Code's dialect end to end: hooks written the way Claude Code's hooks reference describes
 * them (its tool names, `tool_input.file_path`, `permissionDecision`, `updatedInput`,
 * `decision: "block"`, exit 2, `if`), placed in `.claude/settings.json` (and `~/.claude/…`,
 * `.claude/settings.local.json`) of a temporary project, driven by `hookwire run` on the scripted
 * model. Every test asserts the effect: the file that survives, the tool that did not run, the
 * context in the model's next request, the command that ran instead.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  callTool,
  createSandbox,
  readLog,
  runCli,
  runScripted,
  runToolCalls,
  say,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

/** Claude Code's reference guard: reads tool_name and tool_input.command, exit 2 blocks. */
const BASH_GUARD = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
if (input.tool_name !== 'Bash') process.exit(0);
if (/\\brm\\s+-rf\\b/.test(input.tool_input.command)) {
  process.stderr.write('rm -rf is not allowed here (' + input.tool_input.description + ')');
  process.exit(2);
}
`;

/** Protects .env files: JSON permissionDecision deny, reading tool_input.file_path. */
const ENV_GUARD = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const path = input.tool_input.file_path ?? '';
if (path.endsWith('.env')) {
  console.log(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: input.tool_name + ' of ' + path + ' is blocked: secrets live there',
    },
  }));
}
`;

/** Rewrites every Bash command with updatedInput (replacing the input). */
const REWRITER = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'allow',
    permissionDecisionReason: 'rewritten',
    updatedInput: {
      command: 'echo rewritten-by-hook > rewritten.txt',
      description: 'rewritten: ' + input.tool_input.command,
      timeout: 30000,
      run_in_background: false,
    },
  },
}));
`;

/** "Tests must pass": blocks Stop until check.txt says ok (decision: "block" + reason). */
const STOP_UNTIL_CHECK = `
import { existsSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const file = process.env.CLAUDE_PROJECT_DIR + '/check.txt';
if (!existsSync(file) || readFileSync(file, 'utf8').trim() !== 'ok') {
  console.log(JSON.stringify({ decision: 'block', reason: 'the check fails: write ok into check.txt' }));
}
`;

async function claudeSettings(sandbox: Sandbox, value: unknown, name = 'settings.json') {
  return writeJson(join(sandbox.project, '.claude', name), value);
}

function bashGroup(command: string, extra: Record<string, unknown> = {}) {
  return { matcher: 'Bash', hooks: [{ type: 'command', command, ...extra }] };
}

describe('Claude Code dialect (.claude/settings.json)', () => {
  it('a Bash guard blocks rm -rf: the directory survives and the model sees the reason', async () => {
    const sandbox = await createSandbox();
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', BASH_GUARD);
    await claudeSettings(sandbox, { hooks: { PreToolUse: [bashGroup(guard)] } });
    await mkdir(join(sandbox.project, 'victim'));
    await writeFile(join(sandbox.project, 'victim', 'keep.txt'), 'keep');

    const { results, code, stderr } = await runToolCalls(sandbox, [
      ['shell', { command: 'rm -rf victim', description: 'clean up' }],
      ['shell', { command: 'echo fine > fine.txt' }],
    ]);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(existsSync(join(sandbox.project, 'victim', 'keep.txt'))).toBe(true);
    expect(results[0]?.error).toContain('rm -rf is not allowed here (clean up)');
    // The guard lets other commands through.
    expect(await readFile(join(sandbox.project, 'fine.txt'), 'utf8')).toBe('fine\n');
  });

  it('a guard fencing a folder by its absolute path (Claude Code paths are absolute) stops a relative write into it', async () => {
    const sandbox = await createSandbox();
    // As users write them for Claude Code, whose Write/Edit always carry absolute file_paths.
    const guard = await writeHookScript(
      sandbox.root,
      'fence.mjs',
      `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const fenced = process.env.CLAUDE_PROJECT_DIR + '/secrets/';
if (String(input.tool_input.file_path ?? '').startsWith(fenced)) {
  process.stderr.write('secrets/ is fenced');
  process.exit(2);
}
`,
    );
    await claudeSettings(sandbox, {
      hooks: {
        PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: guard }] }],
      },
    });
    await mkdir(join(sandbox.project, 'secrets'));
    await writeFile(join(sandbox.project, 'secrets', 'key'), 'original\n');

    const { results } = await runToolCalls(sandbox, [
      ['write_file', { path: 'secrets/key', content: 'overwritten\n' }],
      ['write_file', { path: './secrets/../secrets/key', content: 'overwritten\n' }],
      ['write_file', { path: 'open.txt', content: 'fine\n' }],
    ]);

    expect(await readFile(join(sandbox.project, 'secrets', 'key'), 'utf8')).toBe('original\n');
    expect(results[0]?.error).toContain('secrets/ is fenced');
    expect(results[1]?.error).toContain('secrets/ is fenced');
    expect(await readFile(join(sandbox.project, 'open.txt'), 'utf8')).toBe('fine\n');
  });

  it('a Write|Edit|Read guard reading tool_input.file_path keeps .env untouched and unread', async () => {
    const sandbox = await createSandbox();
    const guard = await writeHookScript(sandbox.root, 'env-guard.mjs', ENV_GUARD);
    await claudeSettings(sandbox, {
      hooks: {
        PreToolUse: [{ matcher: 'Write|Edit|Read', hooks: [{ type: 'command', command: guard }] }],
      },
    });
    await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');

    const { results } = await runToolCalls(sandbox, [
      ['write_file', { path: '.env', content: 'SECRET=stolen\n' }],
      ['edit_file', { path: '.env', old_string: 'SECRET=1', new_string: 'SECRET=2' }],
      ['read_file', { path: '.env' }],
      ['write_file', { path: 'notes.txt', content: 'fine\n' }],
    ]);

    expect(await readFile(join(sandbox.project, '.env'), 'utf8')).toBe('SECRET=1\n');
    // Claude Code's file tools carry absolute paths; so does the payload hookwire gives the hook.
    expect(results[0]?.error).toContain(
      `Write of ${join(sandbox.project, '.env')} is blocked: secrets live there`,
    );
    expect(results[1]?.error).toContain(`Edit of ${join(sandbox.project, '.env')} is blocked`);
    expect(results[2]?.error).toContain(`Read of ${join(sandbox.project, '.env')} is blocked`);
    expect(JSON.stringify(results[2]?.result ?? '')).not.toContain('SECRET');
    expect(await readFile(join(sandbox.project, 'notes.txt'), 'utf8')).toBe('fine\n');
  });

  it('"if" narrows a hook to the calls its permission rule covers: Bash(rm *) and Read(./.env)', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'denied.jsonl');
    // Denies whatever it is run for and logs it: only "if" keeps it from denying everything.
    const denyAll = await writeHookScript(
      sandbox.root,
      'deny-all.mjs',
      `${LOGGER_HOOK}
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'denied by if-hook' } }));`,
      [log],
    );
    await claudeSettings(sandbox, {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(rm *)', command: denyAll }] },
          { matcher: 'Read', hooks: [{ type: 'command', if: 'Read(./.env)', command: denyAll }] },
        ],
      },
    });
    await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');
    await writeFile(join(sandbox.project, 'readme.txt'), 'hello\n');
    await writeFile(join(sandbox.project, 'victim.txt'), 'keep\n');

    const { results } = await runToolCalls(sandbox, [
      ['shell', { command: 'echo a > a.txt && rm victim.txt' }],
      ['shell', { command: 'echo b > b.txt' }],
      ['read_file', { path: '.env' }],
      ['read_file', { path: 'readme.txt' }],
    ]);

    expect(existsSync(join(sandbox.project, 'victim.txt'))).toBe(true);
    expect(results[0]?.error).toContain('denied by if-hook');
    expect(await readFile(join(sandbox.project, 'b.txt'), 'utf8')).toBe('b\n');
    expect(results[2]?.error).toContain('denied by if-hook');
    expect(JSON.stringify(results[3]?.result)).toContain('hello');
    // The hook process only started for the two covered calls.
    const runs = await readLog(log);
    expect(runs.map((run) => run['tool_name'])).toEqual(['Bash', 'Read']);
  });

  it('updatedInput rewrites the command: the rewritten one runs, in hookwire units, and unknown fields are dropped with a note', async () => {
    const sandbox = await createSandbox();
    const rewriter = await writeHookScript(sandbox.root, 'rewrite.mjs', REWRITER);
    await claudeSettings(sandbox, { hooks: { PreToolUse: [bashGroup(rewriter)] } });

    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('c0', 'shell', { command: 'echo original > original.txt' }),
      say('done'),
    ]);
    const { code, stderr } = await runCli(
      ['run', 'go', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );

    expect(code).toBe(0);
    expect(existsSync(join(sandbox.project, 'original.txt'))).toBe(false);
    expect(await readFile(join(sandbox.project, 'rewritten.txt'), 'utf8')).toBe(
      'rewritten-by-hook\n',
    );
    expect(stderr).toContain('"run_in_background" has no counterpart');
  });

  it('context injectors: UserPromptSubmit text and PostToolUse additionalContext reach the model', async () => {
    const sandbox = await createSandbox();
    const prompt = await writeHookScript(
      sandbox.root,
      'prompt.mjs',
      `console.log('Project rule: answer in French.');`,
    );
    const post = await writeHookScript(
      sandbox.root,
      'post.mjs',
      `import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'formatted ' + input.tool_input.file_path } }));`,
    );
    await claudeSettings(sandbox, {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: prompt }] }],
        PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: post }] }],
      },
    });
    const outcome = await runScripted(sandbox, [
      callTool('c0', 'write_file', { path: 'a.ts', content: 'x' }),
      say('done'),
    ]);

    expect(outcome.code).toBe(0);
    const { requests } = outcome;
    expect(JSON.stringify(requests[0]?.['contents'])).toContain('Project rule: answer in French.');
    expect(JSON.stringify(requests[1]?.['contents'])).toContain(
      `formatted ${join(sandbox.project, 'a.ts')}`,
    );
  });

  it('a PostToolUse hook exiting 2 keeps the tool output and feeds its stderr back to the model, as Claude Code does', async () => {
    const sandbox = await createSandbox();
    const lint = await writeHookScript(
      sandbox.root,
      'lint.mjs',
      `process.stderr.write('lint failed: a.ts has no semicolon'); process.exit(2);`,
    );
    await claudeSettings(sandbox, {
      hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: lint }] }] },
    });
    await writeFile(join(sandbox.project, 'a.ts'), 'const answer = 42');
    const outcome = await runScripted(sandbox, [
      callTool('c0', 'read_file', { path: 'a.ts' }),
      say('done'),
    ]);

    expect(outcome.code).toBe(0);
    const contents = outcome.requests[1]?.['contents'] as {
      blocks: { type: string; result?: unknown; text?: string }[];
    }[];
    const response = contents
      .flatMap((message) => message.blocks)
      .find((block) => block.type === 'tool_response');
    // The tool's output is what the model sees, not the hook's stderr.
    expect(JSON.stringify(response?.result)).toContain('const answer = 42');
    expect(JSON.stringify(response?.result)).not.toContain('lint failed');
    // The text output does not call the feedback a denial.
    expect(outcome.stderr).not.toContain('denied');
    // The hook's stderr reaches the model beside it.
    expect(JSON.stringify(contents)).toContain(
      'PostToolUse hook feedback: lint failed: a.ts has no semicolon',
    );
  });

  it('a Stop hook keeps the agent working until its check passes (decision "block"; and exit 2 with a JSON reason)', async () => {
    for (const variant of ['json', 'exit2'] as const) {
      const sandbox = await createSandbox();
      const source =
        variant === 'json'
          ? STOP_UNTIL_CHECK
          : STOP_UNTIL_CHECK.replace(
              "console.log(JSON.stringify({ decision: 'block', reason: 'the check fails: write ok into check.txt' }));",
              "console.log(JSON.stringify({ reason: 'the check fails: write ok into check.txt' })); process.stderr.write('ignored'); process.exit(2);",
            );
      const stop = await writeHookScript(sandbox.root, 'stop.mjs', source);
      await claudeSettings(sandbox, {
        hooks: { Stop: [{ hooks: [{ type: 'command', command: stop }] }] },
      });
      const outcome = await runScripted(
        sandbox,
        [
          say('all done'),
          callTool('c0', 'write_file', { path: 'check.txt', content: 'ok' }),
          say('now really done'),
        ],
        { extra: ['--output-format', 'json'] },
      );

      expect(outcome.code).toBe(0);
      expect(await readFile(join(sandbox.project, 'check.txt'), 'utf8')).toBe('ok');
      const { requests } = outcome;
      expect(requests).toHaveLength(3);
      expect(JSON.stringify(requests[1]?.['contents'])).toContain(
        'the check fails: write ok into check.txt',
      );
      expect(JSON.stringify(requests[1]?.['contents'])).not.toContain('ignored');
      expect(JSON.parse(outcome.stdout)).toMatchObject({ result: 'now really done' });
    }
  });

  it('a logger in ~/.claude/settings.json sees Claude names; .claude/settings.local.json loads too; CLAUDE_PROJECT_DIR is set', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const logger = await writeHookScript(
      sandbox.root,
      'logger.mjs',
      `${LOGGER_HOOK}
appendFileSync(process.argv[2], JSON.stringify({ dir: process.env.CLAUDE_PROJECT_DIR }) + '\\n');`,
      [log],
    );
    const localLog = join(sandbox.root, 'local.jsonl');
    const localLogger = await writeHookScript(sandbox.root, 'local.mjs', LOGGER_HOOK, [localLog]);
    await writeJson(join(sandbox.home, '.claude', 'settings.json'), {
      model: 'opus',
      hooks: { PostToolUse: [{ matcher: '.*', hooks: [{ type: 'command', command: logger }] }] },
    });
    await claudeSettings(
      sandbox,
      {
        hooks: {
          PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: localLogger }] }],
        },
      },
      'settings.local.json',
    );
    await writeFile(join(sandbox.project, 'a.txt'), 'one\n');

    await runToolCalls(sandbox, [
      ['edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' }],
      ['shell', { command: 'true', timeout: 5 }],
    ]);

    const entries = await readLog(log);
    const payloads = entries.filter((entry) => 'tool_name' in entry);
    expect(payloads.map((entry) => entry['tool_name'])).toEqual(['Edit', 'Bash']);
    expect(payloads[0]).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_input: {
        file_path: join(sandbox.project, 'a.txt'),
        old_string: 'one',
        new_string: 'two',
      },
    });
    // Claude Code's Bash takes milliseconds.
    expect(payloads[1]).toMatchObject({ tool_input: { command: 'true', timeout: 5000 } });
    expect(entries.filter((entry) => 'dir' in entry)[0]).toEqual({ dir: sandbox.project });
    expect((await readLog(localLog)).map((entry) => entry['tool_name'])).toEqual(['Edit']);
    expect(await readFile(join(sandbox.project, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('one unknown field, event or hook type never disables another hook: each is skipped or ignored with a warning naming file and path', async () => {
    const sandbox = await createSandbox();
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', BASH_GUARD);
    const file = await claudeSettings(sandbox, {
      permissions: { allow: ['Bash(npm test)'] },
      enabledPlugins: {},
      hooks: {
        TeammateIdle: [{ hooks: [{ type: 'command', command: 'true' }] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'Is this safe?' },
              {
                type: 'command',
                command: guard,
                statusMessage: 'Checking the command…',
                onFailure: 'block',
                frobnicate: true,
              },
            ],
          },
        ],
      },
    });
    await mkdir(join(sandbox.project, 'victim'));

    const { results, stderr } = await runToolCalls(sandbox, [
      ['shell', { command: 'rm -rf victim' }],
    ]);

    expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
    expect(results[0]?.error).toContain('rm -rf is not allowed here');
    expect(stderr).toContain(
      `${file} at hooks.TeammateIdle: Claude Code's event "TeammateIdle" is not supported`,
    );
    expect(stderr).toContain(
      `${file} at hooks.PreToolUse[0].hooks[0].type: hook type "prompt" is not supported`,
    );
    expect(stderr).toContain(
      `${file} at hooks.PreToolUse[0].hooks[1].frobnicate: hookwire does not implement the hook field "frobnicate"`,
    );
    expect(stderr).not.toContain('permissions');
  });

  it('hooks list shows file and dialect; --no-dialects and "dialects": [] turn them off and say so once', async () => {
    const sandbox = await createSandbox();
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', BASH_GUARD);
    const file = await claudeSettings(sandbox, {
      hooks: { PreToolUse: [bashGroup(guard, { if: 'Bash(rm *)' })] },
    });

    const listed = await runCli(['hooks', 'list', '--json', '--cwd', sandbox.project], {
      env: sandbox.env,
    });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        layer: 'project',
        dialect: 'claude',
        file,
        if: 'Bash(rm *)',
      },
    ]);
    const table = await runCli(['hooks', 'list', '--cwd', sandbox.project], { env: sandbox.env });
    expect(table.stdout).toContain('project/claude');
    expect(table.stdout).toContain(`${file} (claude)`);

    await mkdir(join(sandbox.project, 'victim'));
    const off = await runToolCalls(
      sandbox,
      [['shell', { command: 'rm -rf victim' }]],
      ['--no-dialects'],
    );
    expect(existsSync(join(sandbox.project, 'victim'))).toBe(false);
    expect(off.stderr.split(file).length - 1).toBe(1);
    expect(off.stderr).toContain(`not loading the hooks of ${file}: --no-dialects`);

    await mkdir(join(sandbox.project, 'victim'));
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), { dialects: ['gemini'] });
    const setting = await runToolCalls(sandbox, [['shell', { command: 'rm -rf victim' }]]);
    expect(existsSync(join(sandbox.project, 'victim'))).toBe(false);
    expect(setting.stderr).toContain(`not loading the hooks of ${file}: "dialects" in`);
  });

  it("project .claude hooks need trust like hookwire's own", async () => {
    const sandbox = await createSandbox();
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', BASH_GUARD);
    await claudeSettings(sandbox, { hooks: { PreToolUse: [bashGroup(guard)] } });
    await mkdir(join(sandbox.project, 'victim'));
    const { HOOKWIRE_TRUST_PROJECT: _trusted, ...untrusted } = sandbox.env;

    const outcome = await runToolCalls(
      sandbox,
      [['shell', { command: 'rm -rf victim' }]],
      [],
      untrusted,
    );

    expect(outcome.stderr).toContain('skipped 1 project hook as not trusted');
    expect(existsSync(join(sandbox.project, 'victim'))).toBe(false);
    const trusted = await runToolCalls(
      sandbox,
      [['shell', { command: 'mkdir kept && rm -rf kept' }]],
      ['--trust-project'],
      untrusted,
    );
    expect(trusted.results[0]?.error).toContain('rm -rf is not allowed here');
    expect(existsSync(join(sandbox.project, 'kept'))).toBe(false);
  });
  it('CLAUDE_ENV_FILE: what a SessionStart hook exports there applies to later shell calls; the file is gone after the run', async () => {
    const sandbox = await createSandbox();
    const seen = join(sandbox.root, 'env-file.txt');
    const hook = await writeHookScript(
      sandbox.root,
      'session-env.mjs',
      `import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
JSON.parse(readFileSync(0, 'utf8'));
writeFileSync(process.argv[2], process.env.CLAUDE_ENV_FILE ?? '');
appendFileSync(process.env.CLAUDE_ENV_FILE, 'export GREETING="from the hook"\\nexport PATH="$PATH:/opt/extra"\\n');`,
      [seen],
    );
    await claudeSettings(sandbox, {
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hook }] }] },
    });

    const { results, code } = await runToolCalls(sandbox, [
      ['shell', { command: 'echo "$GREETING" > greeting.txt; echo "$PATH" > path.txt' }],
      ['shell', { command: 'printf %s "$GREETING"' }],
    ]);

    expect(code).toBe(0);
    expect(await readFile(join(sandbox.project, 'greeting.txt'), 'utf8')).toBe('from the hook\n');
    expect(await readFile(join(sandbox.project, 'path.txt'), 'utf8')).toContain(':/opt/extra');
    expect(results[1]?.result).toMatchObject({ exitCode: 0, stdout: 'from the hook' });
    const file = await readFile(seen, 'utf8');
    expect(file).toMatch(/hookwire-claude-env-.*env\.sh$/);
    expect(existsSync(file)).toBe(false);
  });
});
