/**
 * Gemini CLI's dialect end to end: hooks written the way Gemini CLI's hooks reference
 * (`../shared/seeds/002_…`) describes them — `BeforeTool`/`AfterTool`/`BeforeAgent`/`AfterAgent`,
 * its tool names (`run_shell_command`, `write_file`, `replace`, `read_file`, `grep_search`), its
 * argument names (`file_path`, `dir_path`), `decision`/`reason`, `hookSpecificOutput.tool_input`
 * (merged), millisecond timeouts, JSON read before the exit code, `hooksConfig`, per-hook `env`,
 * bash — placed in `.gemini/settings.json` of a temporary project and driven by `hookwire run` on
 * the scripted model. Every test asserts the effect.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  type Sandbox,
} from './support.ts';

const SHELL_GUARD = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
if (input.tool_name === 'run_shell_command' && input.tool_input.command.includes('rm -rf')) {
  console.log(JSON.stringify({ decision: 'deny', reason: 'Gemini guard: no rm -rf (' + input.hook_event_name + ')' }));
} else console.log(JSON.stringify({ decision: 'allow' }));
`;

const FILE_GUARD = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const path = input.tool_input.file_path ?? '';
if (path.endsWith('.env')) {
  // Gemini CLI reads stdout's JSON before the exit code: this deny counts although it exits 1.
  console.log(JSON.stringify({ decision: 'deny', reason: input.tool_name + ' ' + path + ' is protected' }));
  process.exit(1);
}
console.log(JSON.stringify({}));
`;

async function geminiSettings(sandbox: Sandbox, value: unknown): Promise<string> {
  return writeJson(join(sandbox.project, '.gemini', 'settings.json'), value);
}

function group(matcher: string, hooks: readonly Record<string, unknown>[]) {
  return { matcher, hooks: hooks.map((hook) => ({ type: 'command', ...hook })) };
}

describe('Gemini CLI dialect (.gemini/settings.json)', () => {
  it('BeforeTool guards on run_shell_command and on write_file/replace/read_file (JSON before the exit code) keep files intact', async () => {
    const sandbox = await createSandbox();
    const shell = await writeHookScript(sandbox.root, 'shell.mjs', SHELL_GUARD);
    const files = await writeHookScript(sandbox.root, 'files.mjs', FILE_GUARD);
    await geminiSettings(sandbox, {
      general: { vimMode: true },
      hooks: {
        BeforeTool: [
          group('run_shell_command', [{ command: shell, name: 'shell-guard', timeout: 60000 }]),
          group('write_file|replace|read_.*', [{ command: files, name: 'file-guard' }]),
        ],
      },
    });
    await mkdir(join(sandbox.project, 'victim'));
    await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');

    const { results, stderr } = await runToolCalls(sandbox, [
      ['shell', { command: 'rm -rf victim' }],
      ['write_file', { path: '.env', content: 'SECRET=stolen\n' }],
      ['edit_file', { path: '.env', old_string: 'SECRET=1', new_string: 'SECRET=2' }],
      ['read_file', { path: '.env' }],
      ['shell', { command: 'echo ok > ok.txt' }],
    ]);

    expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
    expect(results[0]?.error).toContain('Gemini guard: no rm -rf (BeforeTool)');
    expect(await readFile(join(sandbox.project, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(results[1]?.error).toContain(`write_file ${join(sandbox.project, '.env')} is protected`);
    expect(results[2]?.error).toContain(`replace ${join(sandbox.project, '.env')} is protected`);
    expect(results[3]?.error).toContain(`read_file ${join(sandbox.project, '.env')} is protected`);
    expect(await readFile(join(sandbox.project, 'ok.txt'), 'utf8')).toBe('ok\n');
    expect(stderr).not.toContain('vimMode');
  });

  it('hookSpecificOutput.tool_input merges over the arguments: the rewritten command runs; dir_path maps to grep path', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const rewrite = await writeHookScript(
      sandbox.root,
      'rewrite.mjs',
      `console.log(JSON.stringify({ hookSpecificOutput: { tool_input: { command: 'echo merged > merged.txt' } } }));`,
    );
    const narrow = await writeHookScript(
      sandbox.root,
      'narrow.mjs',
      `${LOGGER_HOOK}
console.log(JSON.stringify({ hookSpecificOutput: { tool_input: { dir_path: 'src' } } }));`,
      [log],
    );
    await geminiSettings(sandbox, {
      hooks: {
        BeforeTool: [
          group('run_shell_command', [{ command: rewrite }]),
          group('grep_search', [{ command: narrow }]),
        ],
      },
    });
    await mkdir(join(sandbox.project, 'src'));
    await writeFile(join(sandbox.project, 'src', 'a.txt'), 'needle in src\n');
    await writeFile(join(sandbox.project, 'b.txt'), 'needle outside\n');

    const { results } = await runToolCalls(sandbox, [
      ['shell', { command: 'echo original > original.txt', description: 'write a file' }],
      ['grep', { pattern: 'needle' }],
    ]);

    expect(existsSync(join(sandbox.project, 'original.txt'))).toBe(false);
    expect(await readFile(join(sandbox.project, 'merged.txt'), 'utf8')).toBe('merged\n');
    const found = JSON.stringify(results[1]?.result);
    expect(found).toContain('needle in src');
    expect(found).not.toContain('needle outside');
    expect((await readLog(log))[0]).toMatchObject({
      hook_event_name: 'BeforeTool',
      tool_name: 'grep_search',
      tool_input: { pattern: 'needle' },
    });
  });

  it('BeforeAgent and AfterTool add context the model sees; AfterAgent deny retries until the check passes', async () => {
    const sandbox = await createSandbox();
    const agent = await writeHookScript(
      sandbox.root,
      'agent.mjs',
      `console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'Current branch: main' } }));`,
    );
    const after = await writeHookScript(
      sandbox.root,
      'after.mjs',
      `import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify({ hookSpecificOutput: { additionalContext: 'linted ' + input.tool_input.file_path } }));`,
    );
    const retry = await writeHookScript(
      sandbox.root,
      'retry.mjs',
      `import { existsSync } from 'node:fs';
if (!existsSync(process.env.GEMINI_PROJECT_DIR + '/report.md')) {
  console.log(JSON.stringify({ decision: 'deny', reason: 'Write report.md before finishing.' }));
}`,
    );
    await geminiSettings(sandbox, {
      hooks: {
        BeforeAgent: [group('', [{ command: agent }])],
        AfterTool: [group('write_file', [{ command: after }])],
        AfterAgent: [group('', [{ command: retry }])],
      },
    });
    const outcome = await runScripted(sandbox, [
      say('finished'),
      callTool('c0', 'write_file', { path: 'report.md', content: '# report' }),
      say('finished for real'),
    ]);

    expect(outcome.code).toBe(0);
    const { requests } = outcome;
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(requests[0]?.['contents'])).toContain('Current branch: main');
    expect(JSON.stringify(requests[1]?.['contents'])).toContain(
      'Write report.md before finishing.',
    );
    expect(JSON.stringify(requests[2]?.['contents'])).toContain(
      `linted ${join(sandbox.project, 'report.md')}`,
    );
    expect(await readFile(join(sandbox.project, 'report.md'), 'utf8')).toBe('# report');
  });

  it('runs under bash with the hook env and GEMINI_PROJECT_DIR; hooksConfig.disabled skips by name; a millisecond timeout is milliseconds', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'env.log');
    await geminiSettings(sandbox, {
      hooksConfig: { disabled: ['blocker'] },
      hooks: {
        SessionStart: [
          group('', [
            {
              name: 'env-logger',
              // [[ ]] is bash syntax: under sh this line fails.
              command: `[[ -n "$GEMINI_PROJECT_DIR" ]] && echo "$GEMINI_PROJECT_DIR $TEAM" >> ${JSON.stringify(log)}`,
              env: { TEAM: 'platform' },
            },
          ]),
        ],
        BeforeTool: [
          group('run_shell_command', [
            { name: 'blocker', command: 'echo blocked >&2; exit 2' },
            { name: 'slow', command: 'sleep 600', timeout: 300 },
          ]),
        ],
      },
    });

    const { results } = await runToolCalls(sandbox, [['shell', { command: 'echo ran > ran.txt' }]]);

    expect(await readFile(log, 'utf8')).toBe(`${sandbox.project} platform\n`);
    // "blocker" is disabled; "slow" times out after 300 ms (not 300 s) and fails open.
    expect(results[0]?.error).toBeUndefined();
    // A "slow" that ran its 600 s (past the test's timeout) would fail the test: no wall clock.
    expect(await readFile(join(sandbox.project, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('Gemini model hooks load beside the tool hooks (their shapes are translated); hooksConfig.enabled false loads nothing', async () => {
    const sandbox = await createSandbox();
    await geminiSettings(sandbox, {
      hooks: {
        BeforeModel: [group('', [{ command: 'echo "{}"' }])],
        BeforeTool: [group('run_shell_command', [{ command: 'exit 2' }])],
      },
    });
    const listed = await runCli(['hooks', 'list', '--json', '--cwd', sandbox.project], {
      env: sandbox.env,
    });
    expect(listed.stderr).toBe('');
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { event: 'BeforeModel', registeredAs: 'BeforeModel', dialect: 'gemini' },
      {
        event: 'PreToolUse',
        registeredAs: 'BeforeTool',
        dialect: 'gemini',
        matcher: 'run_shell_command',
      },
    ]);

    await geminiSettings(sandbox, {
      hooksConfig: { enabled: false },
      hooks: { BeforeTool: [group('run_shell_command', [{ command: 'exit 2' }])] },
    });
    const { results } = await runToolCalls(sandbox, [['shell', { command: 'echo ran > ran.txt' }]]);
    expect(results[0]?.error).toBeUndefined();
    expect(await readFile(join(sandbox.project, 'ran.txt'), 'utf8')).toBe('ran\n');
  });
});

describe("Gemini CLI's mcpServers (.gemini/settings.json)", () => {
  const STDIO_SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'stdio-server.ts');

  it('start under the trust rules of a project file when the gemini dialect is on; Gemini-only fields are ignored with a warning', async () => {
    const sandbox = await createSandbox();
    const env = { ...sandbox.env };
    delete env['HOOKWIRE_TRUST_PROJECT'];
    const pidFile = join(sandbox.root, 'server.pid');
    const file = await geminiSettings(sandbox, {
      mcpServers: {
        repo: {
          command: process.execPath,
          args: [STDIO_SERVER, 'repo'],
          env: { HOOKWIRE_TEST_MCP_PID_FILE: pidFile },
          timeout: 20000,
          trust: true,
        },
        broken: { url: 42 },
      },
    });
    const call: [string, unknown][] = [['mcp__repo__echo', { text: 'hi' }]];

    const untrusted = await runToolCalls(sandbox, call, [], env);
    expect(untrusted.results[0]?.error).toContain('unknown tool "mcp__repo__echo"');
    expect(existsSync(pidFile)).toBe(false);
    expect(untrusted.stderr).toContain('skipped 1 project MCP server (repo) as not trusted');

    const trusted = await runToolCalls(sandbox, call, ['--trust-project'], env);
    expect(trusted.results[0]?.result).toBe('echo: hi');
    expect(existsSync(pidFile)).toBe(true);
    expect(trusted.stderr).toContain(
      `${file} at mcpServers.repo.trust: hookwire does not implement Gemini CLI's "trust": ignored`,
    );
    expect(trusted.stderr).toContain(`${file} at mcpServers.broken`);

    const imported = await runCli(
      ['hooks', 'import', '--from', 'gemini', '--cwd', sandbox.project],
      {
        env: sandbox.env,
      },
    );
    expect(imported.stderr).toContain(`${file}: its mcpServers (repo) are not imported`);

    await rm(pidFile);
    const off = await runToolCalls(sandbox, call, ['--trust-project', '--no-dialects'], env);
    expect(off.results[0]?.error).toContain('unknown tool "mcp__repo__echo"');
    expect(existsSync(pidFile)).toBe(false);
  });
});
