/**
 * `hookwire hooks import` round-trips: a Claude Code (or Gemini CLI) file loaded as a dialect and
 * the same file imported into `.hookwire/settings.json` (the original removed) give the same
 * effects on the same tool calls; what cannot be carried is said.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  createSandbox,
  readLog,
  runCli,
  runToolCalls,
  writeHookScript,
  writeJson,
  type Sandbox,
} from './support.ts';

const CLAUDE_GUARD = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const target = input.tool_input.command ?? input.tool_input.file_path;
process.stderr.write('blocked ' + input.tool_name + ': ' + target);
process.exit(2);
`;

/** The effects of one round of calls: what survived, what the guards said, what the logger saw. */
async function effects(sandbox: Sandbox, log: string) {
  await rm(log, { force: true });
  await mkdir(join(sandbox.project, 'victim'), { recursive: true });
  await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');
  const { results } = await runToolCalls(sandbox, [
    ['shell', { command: 'rm -rf victim' }],
    ['shell', { command: 'echo ok' }],
    ['write_file', { path: '.env', content: 'SECRET=2\n' }],
    ['grep', { pattern: 'SECRET', path: '.' }],
  ]);
  return {
    victim: existsSync(join(sandbox.project, 'victim')),
    env: await readFile(join(sandbox.project, '.env'), 'utf8'),
    errors: results.map((result) => result.error ?? null),
    logged: (await readLog(log)).map((entry) => [entry['tool_name'], entry['tool_input']]),
  };
}

describe('hookwire hooks import', () => {
  it('--from claude: the imported file has the same effects as .claude/settings.json, and says what it could not carry', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', CLAUDE_GUARD);
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    const claudeFile = await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
      permissions: { deny: ['Read(./.env)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: guard, if: 'Bash(rm *)', timeout: 5, onFailure: 'block' },
            ],
          },
          {
            matcher: 'Write|Edit|MultiEdit',
            hooks: [{ type: 'command', command: guard, timeout: 5 }],
          },
          { matcher: 'Grep|LS', hooks: [{ type: 'command', command: logger, once: true }] },
        ],
        SubagentStop: [{ hooks: [{ type: 'command', command: logger }] }],
        TeammateIdle: [{ hooks: [{ type: 'command', command: logger }] }],
      },
    });

    const asDialect = await effects(sandbox, log);
    expect(asDialect.victim).toBe(true);
    expect(asDialect.env).toBe('SECRET=1\n');
    expect(asDialect.errors).toEqual([
      expect.stringContaining('blocked Bash: rm -rf victim'),
      null,
      expect.stringContaining(`blocked Write: ${join(sandbox.project, '.env')}`),
      null,
    ]);
    expect(asDialect.logged).toEqual([['Grep', { pattern: 'SECRET', path: '.' }]]);

    const target = join(sandbox.project, '.hookwire', 'settings.json');
    await mkdir(join(sandbox.project, '.hookwire'), { recursive: true });
    const imported = await runCli(
      ['hooks', 'import', '--from', 'claude', '--write', target, '--cwd', sandbox.project],
      { env: sandbox.env },
    );
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain(
      `${claudeFile} at hooks.TeammateIdle: Claude Code's event "TeammateIdle" is not supported`,
    );
    expect(imported.stderr).toContain('the tool MultiEdit has no counterpart in hookwire');
    expect(imported.stderr).toContain('the tool LS has no counterpart in hookwire');
    expect(imported.stderr).toContain('"once" is not carried');
    const written = JSON.parse(await readFile(target, 'utf8')) as {
      hooks: Record<string, unknown[]>;
    };
    expect(written.hooks['PreToolUse']).toEqual([
      {
        matcher: 'shell',
        dialect: 'claude',
        hooks: [
          { type: 'command', command: guard, timeout: '5s', failClosed: true, if: 'shell(rm *)' },
        ],
      },
      {
        matcher: 'write_file|edit_file',
        dialect: 'claude',
        hooks: [{ type: 'command', command: guard, timeout: '5s' }],
      },
      {
        matcher: 'grep',
        dialect: 'claude',
        hooks: [{ type: 'command', command: logger, timeout: '600s' }],
      },
    ]);
    // Gemini CLI's migrator drops SubagentStop; hookwire has it.
    expect(written.hooks['SubagentStop']).toEqual([
      { dialect: 'claude', hooks: [{ type: 'command', command: logger, timeout: '600s' }] },
    ]);
    expect(written.hooks['TeammateIdle']).toBeUndefined();

    // The original removed, the imported file alone gives the same effects.
    await rm(join(sandbox.project, '.claude'), { recursive: true });
    expect(await effects(sandbox, log)).toEqual(asDialect);

    const again = await runCli(['hooks', 'import', '--from', 'gemini', '--cwd', sandbox.project], {
      env: sandbox.env,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no gemini settings file found');
  });

  it('--from gemini: grep_search becomes grep, list_directory is said, milliseconds get their unit, and the effects match', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    const guard = await writeHookScript(
      sandbox.root,
      'guard.mjs',
      `import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const target = input.tool_input.command ?? input.tool_input.file_path;
if (input.tool_name === 'write_file' || target.includes('rm -rf'))
  console.log(JSON.stringify({ decision: 'deny', reason: 'blocked ' + input.tool_name + ': ' + target }));`,
    );
    await writeJson(join(sandbox.project, '.gemini', 'settings.json'), {
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command|write_file',
            hooks: [{ type: 'command', command: guard, timeout: 5000, name: 'guard' }],
          },
          {
            matcher: 'grep_search|list_directory',
            hooks: [{ type: 'command', command: logger, timeout: 1500 }],
          },
        ],
      },
    });

    const asDialect = await effects(sandbox, log);
    expect(asDialect.victim).toBe(true);
    expect(asDialect.env).toBe('SECRET=1\n');
    expect(asDialect.logged).toEqual([['grep_search', { pattern: 'SECRET', dir_path: '.' }]]);

    const printed = await runCli(
      ['hooks', 'import', '--from', 'gemini', '--cwd', sandbox.project],
      {
        env: sandbox.env,
      },
    );
    expect(printed.code).toBe(0);
    expect(printed.stderr).toContain('the tool list_directory has no counterpart in hookwire');
    const settings = JSON.parse(printed.stdout) as { hooks: Record<string, unknown[]> };
    expect(settings.hooks['BeforeTool']).toEqual([
      {
        matcher: 'shell|write_file',
        dialect: 'gemini',
        hooks: [{ type: 'command', command: guard, name: 'guard', timeout: '5s' }],
      },
      {
        matcher: 'grep',
        dialect: 'gemini',
        hooks: [{ type: 'command', command: logger, timeout: '1500ms' }],
      },
    ]);
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), settings);
    await rm(join(sandbox.project, '.gemini'), { recursive: true });
    expect(await effects(sandbox, log)).toEqual(asDialect);
  });
});
