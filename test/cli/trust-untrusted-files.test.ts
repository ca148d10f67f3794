/**
 * Untrusted project files cannot loosen or disable, through the built CLI: a cloned
 * repository's never-trusted `.hookwire/settings.json` cannot stop the user's own Claude Code
 * guard from loading, cannot override the user's `plan` mode, and a project settings file
 * linked to a file outside the project still needs the trust step. HOME points at a temporary
 * directory, so the trust record and the user's files are the test's own.
 */
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REPOSITORY,
  callTool,
  createSandbox,
  readLog,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
  LOGGER_HOOK,
  type Sandbox,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');

/** A sandbox whose environment trusts nothing (HOME is the sandbox's home). */
async function untrustingSandbox(): Promise<{ sandbox: Sandbox; env: NodeJS.ProcessEnv }> {
  const sandbox = await createSandbox();
  const env: NodeJS.ProcessEnv = { ...sandbox.env, HOME: sandbox.home };
  delete env.HOOKWIRE_TRUST_PROJECT;
  delete env.HOOKWIRE_HOME;
  return { sandbox, env };
}

/** `hookwire run` (the built CLI) in `cwd` on a model that makes `calls`, then answers. */
async function run(
  sandbox: Sandbox,
  env: NodeJS.ProcessEnv,
  calls: readonly [string, unknown][],
  extra: readonly string[] = [],
  cwd = sandbox.project,
) {
  const model = await writeScript(join(sandbox.root, `model-${Math.random()}.jsonl`), [
    ...calls.map(([name, input], index) => callTool(`c${index}`, name, input)),
    say('done'),
  ]);
  return runCli(['run', 'go', '--model', `scripted:${model}`, '--cwd', cwd, ...extra], {
    env,
    main: BIN,
  });
}

describe('untrusted project files cannot loosen or disable', () => {
  it('"dialects": [] in an untrusted project file leaves the user’s ~/.claude guard running; it only turns off the project’s own dialect files', async () => {
    const { sandbox, env } = await untrustingSandbox();
    const victim = join(sandbox.project, 'victim.txt');
    await writeFile(victim, 'keep me');
    await writeJson(join(sandbox.home, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'echo "the user guard says no" >&2; exit 2' }],
          },
        ],
      },
    });
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), { dialects: [] });
    const projectLog = join(sandbox.root, 'project-claude.log');
    const logger = await writeHookScript(sandbox.project, 'log.mjs', LOGGER_HOOK, [projectLog]);
    await writeJson(
      join(sandbox.project, '.claude', 'settings.json'),
      settingsWith({ SessionStart: [logger] }),
    );

    const untrusted = await run(sandbox, env, [['shell', { command: 'rm victim.txt' }]]);
    expect(untrusted.code).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('keep me');

    // Trusted (for this run), the project's "dialects" turns off its own .claude file only.
    const trusted = await run(
      sandbox,
      env,
      [['shell', { command: 'rm victim.txt' }]],
      ['--trust-project'],
    );
    expect(trusted.code).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('keep me');
    expect(await readLog(projectLog)).toEqual([]);
    expect(trusted.stderr).toContain(
      `not loading the hooks of ${join(sandbox.project, '.claude', 'settings.json')}`,
    );
  });

  it('an untrusted project "defaultMode": "default" does not override the user’s "plan"', async () => {
    const { sandbox, env } = await untrustingSandbox();
    await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), {
      permissions: { defaultMode: 'plan', allow: ['write_file'] },
    });
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      permissions: { defaultMode: 'default' },
    });
    const written = join(sandbox.project, 'planned.txt');
    const outcome = await run(sandbox, env, [
      ['write_file', { path: 'planned.txt', content: 'changed while planning' }],
    ]);
    expect(outcome.code).toBe(0);
    await expect(stat(written)).rejects.toThrow();
    expect(outcome.stderr).toContain('skipped 1 project permission setting as not trusted');
    const shown = await runCli(['hooks', 'trust', '--cwd', sandbox.project], { env, main: BIN });
    expect(shown.stdout).toContain('permissions.defaultMode: default');

    // A stricter mode from the project applies at once.
    await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), {
      permissions: { allow: ['write_file'] },
    });
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      permissions: { defaultMode: 'plan' },
    });
    const stricter = await run(sandbox, env, [
      ['write_file', { path: 'planned.txt', content: 'changed while planning' }],
    ]);
    expect(stricter.stderr).toBe('');
    await expect(stat(written)).rejects.toThrow();

    // Without the project's mode, the user's allow rule writes (the check above can fail).
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {});
    await run(sandbox, env, [['write_file', { path: 'planned.txt', content: 'now' }]]);
    expect(await readFile(written, 'utf8')).toBe('now');
  });

  it('a project settings file linked to a file outside --cwd still needs the trust step', async () => {
    const { sandbox, env } = await untrustingSandbox();
    const app = join(sandbox.project, 'packages', 'app');
    await mkdir(join(app, '.hookwire'), { recursive: true });
    const log = join(sandbox.root, 'linked.log');
    const logger = await writeHookScript(sandbox.project, 'log.mjs', LOGGER_HOOK, [log]);
    await writeJson(
      join(sandbox.project, 'tools', 'x.json'),
      settingsWith({ SessionStart: [logger] }),
    );
    await symlink('../../../tools/x.json', join(app, '.hookwire', 'settings.json'));

    const outcome = await run(sandbox, env, [], [], app);
    expect(outcome.code).toBe(0);
    expect(await readLog(log)).toEqual([]);
    expect(outcome.stderr).toContain('skipped 1 project hook as not trusted');

    const trusted = await runCli(['hooks', 'trust', '--yes', '--cwd', app], { env, main: BIN });
    expect(trusted.stdout).toContain('Trusted 1 entry');
    await run(sandbox, env, [], [], app);
    expect((await readLog(log)).map((entry) => entry['hook_event_name'])).toEqual(['SessionStart']);
  });
});
