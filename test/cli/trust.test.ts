/**
 * Trust by hash, end to end through the real CLI: a fresh repository's hooks do not run until
 * trusted, and stop running when edited. HOME points at a temporary directory, so the trust
 * record (~/.hookwire/trusted-hooks.json) is the test's own.
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
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

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

interface Repository {
  readonly sandbox: Sandbox;
  readonly env: NodeJS.ProcessEnv;
  readonly log: string;
  readonly settingsFile: string;
  readonly script: string;
  readonly command: string;
}

/** A cloned repository with a SessionStart hook, and an environment that trusts nothing. */
async function freshRepository(): Promise<Repository> {
  const sandbox = await createSandbox();
  roots.push(sandbox.root);
  const env: NodeJS.ProcessEnv = { ...sandbox.env, HOME: sandbox.home };
  delete env.HOOKWIRE_TRUST_PROJECT;
  delete env.HOOKWIRE_HOME; // the default: ~/.hookwire under HOME
  const log = join(sandbox.root, 'hook.log');
  const command = await writeHookScript(sandbox.project, 'log.mjs', LOGGER_HOOK, [log]);
  const settingsFile = await writeJson(
    join(sandbox.project, '.hookwire', 'settings.json'),
    settingsWith({ SessionStart: [command] }),
  );
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    say('done'),
    say('done'),
    say('done'),
    say('done'),
    say('done'),
  ]);
  return { sandbox, env, log, settingsFile, script, command };
}

function run(repository: Repository, extra: readonly string[] = [], env = repository.env) {
  return runCli(
    [
      'run',
      'hello',
      '--model',
      `scripted:${repository.script}`,
      '--cwd',
      repository.sandbox.project,
      ...extra,
    ],
    { env },
  );
}

interface Row {
  command: string;
  status: string;
  trust: string;
  fingerprint: string;
}

async function listRows(repository: Repository): Promise<Row[]> {
  const listed = await runCli(['hooks', 'list', '--json', '--cwd', repository.sandbox.project], {
    env: repository.env,
  });
  expect(listed.code).toBe(0);
  return JSON.parse(listed.stdout) as Row[];
}

describe('trust by hash', () => {
  it('runs none of a fresh repository’s hooks, says so in one line, and runs them once trusted; an edit untrusts', async () => {
    const repository = await freshRepository();

    const before = await run(repository);
    expect(before.code).toBe(0);
    expect(before.stdout).toBe('done\n');
    const lines = before.stderr.trim().split('\n');
    expect(lines).toEqual([
      `hookwire: skipped 1 project hook as not trusted; review and trust them with: hookwire hooks trust --cwd ${repository.sandbox.project}`,
    ]);
    expect(await readLog(repository.log)).toEqual([]);
    expect((await listRows(repository)).map((row) => [row.status, row.trust])).toEqual([
      ['ignored', 'untrusted'],
    ]);

    // Without a terminal and without --yes nothing is trusted.
    const refused = await runCli(['hooks', 'trust', '--cwd', repository.sandbox.project], {
      env: repository.env,
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(repository.command);
    expect(refused.stdout).toContain('SessionStart');
    expect(refused.stderr).toContain('pass --yes');

    const trusted = await runCli(['hooks', 'trust', '--yes', '--cwd', repository.sandbox.project], {
      env: repository.env,
    });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('Trusted 1 entry');
    const record = JSON.parse(
      await readFile(join(repository.sandbox.home, '.hookwire', 'trusted-hooks.json'), 'utf8'),
    ) as { projects: Record<string, { hooks: Record<string, unknown> }> };
    const rows = await listRows(repository);
    expect(rows.map((row) => [row.status, row.trust])).toEqual([['active', 'trusted']]);
    expect(Object.keys(record.projects[repository.sandbox.project]?.hooks ?? {})).toEqual([
      rows[0]?.fingerprint,
    ]);

    const after = await run(repository);
    expect(after.stderr).toBe('');
    expect((await readLog(repository.log)).map((entry) => entry.hook_event_name)).toEqual([
      'SessionStart',
    ]);

    // Changing the hook's command untrusts it.
    await writeJson(
      repository.settingsFile,
      settingsWith({ SessionStart: [`${repository.command} --changed`] }),
    );
    const edited = await run(repository);
    expect(edited.stderr).toContain('skipped 1 project hook as not trusted');
    expect(await readLog(repository.log)).toHaveLength(1);

    // So does changing its timeout; restoring the trusted definition trusts it again.
    await writeJson(
      repository.settingsFile,
      settingsWith({ SessionStart: [{ command: repository.command, timeout: 5 }] }),
    );
    expect((await listRows(repository)).map((row) => row.trust)).toEqual(['untrusted']);
    await writeJson(repository.settingsFile, settingsWith({ SessionStart: [repository.command] }));
    expect((await listRows(repository)).map((row) => row.trust)).toEqual(['trusted']);

    const untrusted = await runCli(['hooks', 'untrust', '--cwd', repository.sandbox.project], {
      env: repository.env,
    });
    expect(untrusted.stdout).toContain('Untrusted 1 entry');
    expect((await listRows(repository)).map((row) => row.trust)).toEqual(['untrusted']);
  }, 120_000); // a dozen CLI processes one after another: slow on a loaded machine

  it('--trust-project and HOOKWIRE_TRUST_PROJECT=1 trust the project for one run only', async () => {
    const repository = await freshRepository();
    const flagged = await run(repository, ['--trust-project']);
    expect(flagged.stderr).toBe('');
    const environment = await run(repository, [], {
      ...repository.env,
      HOOKWIRE_TRUST_PROJECT: '1',
    });
    expect(environment.stderr).toBe('');
    expect(await readLog(repository.log)).toHaveLength(2);
    const plain = await run(repository);
    expect(plain.stderr).toContain('not trusted');
    expect(await readLog(repository.log)).toHaveLength(2);
  });

  it('hooks fire skips untrusted hooks with the same line', async () => {
    const repository = await freshRepository();
    const fired = await runCli(
      ['hooks', 'fire', 'SessionStart', '--cwd', repository.sandbox.project],
      { env: repository.env, input: '{"source": "startup"}' },
    );
    expect(fired.code).toBe(0);
    expect(fired.stderr).toContain('skipped 1 project hook as not trusted');
    expect((JSON.parse(fired.stdout) as { hooks: unknown[] }).hooks).toEqual([]);
    const trusted = await runCli(
      ['hooks', 'fire', 'SessionStart', '--trust-project', '--cwd', repository.sandbox.project],
      { env: repository.env, input: '{"source": "startup"}' },
    );
    expect((JSON.parse(trusted.stdout) as { hooks: unknown[] }).hooks).toHaveLength(1);
    expect(await readLog(repository.log)).toHaveLength(1);
  });

  it('user and --settings files are the user’s own: no trust needed, even inside the project', async () => {
    const repository = await freshRepository();
    await writeJson(repository.settingsFile, {});
    await writeJson(
      join(repository.sandbox.home, '.hookwire', 'settings.json'),
      settingsWith({ SessionStart: [repository.command] }),
    );
    const extra = await writeJson(
      join(repository.sandbox.project, 'ci-hooks.json'),
      settingsWith({ Stop: [repository.command] }),
    );
    const outcome = await run(repository, ['--settings', extra]);
    expect(outcome.stderr).toBe('');
    expect((await readLog(repository.log)).map((entry) => entry.hook_event_name)).toEqual([
      'SessionStart',
      'Stop',
    ]);
  });

  it('keys trust by the project’s real path: trusted through a symbolic link, it runs from the real path', async () => {
    const repository = await freshRepository();
    const link = join(repository.sandbox.root, 'link-to-project');
    await symlink(repository.sandbox.project, link);
    const trusted = await runCli(['hooks', 'trust', '--yes', '--cwd', link], {
      env: repository.env,
    });
    expect(trusted.code).toBe(0);
    expect((await run(repository)).stderr).toBe('');
    expect(await readLog(repository.log)).toHaveLength(1);
  });

  it('a project file that loosens permissions (allow rules, passEnvironment) is skipped until trusted', async () => {
    const repository = await freshRepository();
    await writeJson(repository.settingsFile, {
      permissions: { allow: ['shell'], deny: ['read_file(.env)'] },
      passEnvironment: ['ANTHROPIC_API_KEY'],
    });
    const outcome = await run(repository);
    expect(outcome.stderr).toContain('skipped 2 project permission settings as not trusted');
    const shown = await runCli(['hooks', 'trust', '--cwd', repository.sandbox.project], {
      env: repository.env,
    });
    expect(shown.stdout).toContain('permissions.allow: shell');
    expect(shown.stdout).toContain('passEnvironment: ANTHROPIC_API_KEY');
    expect(shown.stdout).not.toContain('read_file(.env)'); // deny rules apply at once
  });

  it('refuses a corrupt trust record with one line naming it, and leaves it as it was', async () => {
    const repository = await freshRepository();
    const file = join(repository.sandbox.home, '.hookwire', 'trusted-hooks.json');
    await mkdir(join(repository.sandbox.home, '.hookwire'), { recursive: true });
    await writeFile(file, '{not json');
    const outcome = await runCli(['hooks', 'trust', '--yes', '--cwd', repository.sandbox.project], {
      env: repository.env,
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    expect(outcome.stderr).toContain(file);
    expect(await readFile(file, 'utf8')).toBe('{not json');
  });
});

describe('managed policy', () => {
  it('allowManagedHooksOnly runs only the managed hooks, whatever the other layers or trust say', async () => {
    const repository = await freshRepository();
    await writeJson(repository.sandbox.managedFile, {
      allowManagedHooksOnly: true,
      ...(settingsWith({ Stop: [repository.command] }) as object),
    });
    await writeJson(
      join(repository.sandbox.home, '.hookwire', 'settings.json'),
      settingsWith({ SessionStart: [repository.command] }),
    );
    const outcome = await run(repository, ['--trust-project']);
    expect(outcome.code).toBe(0);
    expect((await readLog(repository.log)).map((entry) => entry.hook_event_name)).toEqual(['Stop']);
  });

  it('disableAllHooks in the managed file runs no hook at all; a project file cannot set it', async () => {
    const repository = await freshRepository();
    await writeJson(repository.sandbox.managedFile, {
      disableAllHooks: true,
      ...(settingsWith({ Stop: [repository.command] }) as object),
    });
    const outcome = await run(repository, ['--trust-project']);
    expect(outcome.code).toBe(0);
    expect(await readLog(repository.log)).toEqual([]);

    await writeJson(repository.sandbox.managedFile, {});
    await writeJson(repository.settingsFile, { disableAllHooks: true });
    const refused = await run(repository);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('a repository cannot switch off your hooks');
  });

  it('disableAllHooks in the user file turns off every hook but the managed ones', async () => {
    const repository = await freshRepository();
    await writeJson(repository.sandbox.managedFile, settingsWith({ Stop: [repository.command] }));
    await writeJson(join(repository.sandbox.home, '.hookwire', 'settings.json'), {
      disableAllHooks: true,
    });
    await run(repository, ['--trust-project']);
    expect((await readLog(repository.log)).map((entry) => entry.hook_event_name)).toEqual(['Stop']);
  });
});
