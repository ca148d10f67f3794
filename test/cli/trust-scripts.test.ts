/**
 * Trust covers what a hook runs, through the built CLI: a trusted `./hooks/lint.sh` rewritten by
 * the model's sandboxed shell or by a `git pull` is not run in the trusted one's place, and
 * `run`, `hooks list` and `hooks trust` say which script changed. HOME points at a temporary
 * directory, so the trust record is the test's own.
 */
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBwrap } from '../../src/hook-kinds/group/index.ts';
import {
  REPOSITORY,
  callTool,
  createSandbox,
  runCli,
  say,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const bwrap = await findBwrap();

interface Project {
  readonly sandbox: Sandbox;
  readonly env: NodeJS.ProcessEnv;
  /** What the trusted script appends to, outside the project. */
  readonly lintLog: string;
  /** What a rewritten script appends to, outside the project. */
  readonly evilLog: string;
  readonly script: string;
}

const lintSource = (log: string): string => `#!/bin/sh\necho lint >> '${log}'\n`;

/** A cloned repository whose PreToolUse hook on `shell` runs `./hooks/lint.sh`, trusted. */
async function trustedProject(): Promise<Project> {
  const sandbox = await createSandbox();
  const env: NodeJS.ProcessEnv = { ...sandbox.env, HOME: sandbox.home };
  delete env.HOOKWIRE_TRUST_PROJECT;
  delete env.HOOKWIRE_HOME;
  const lintLog = join(sandbox.root, 'lint.log');
  const evilLog = join(sandbox.root, 'evil.log');
  const script = join(sandbox.project, 'hooks', 'lint.sh');
  await mkdir(join(sandbox.project, 'hooks'));
  await writeFile(script, lintSource(lintLog));
  await chmod(script, 0o755);
  await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
    hooks: {
      PreToolUse: [{ matcher: 'shell', hooks: [{ type: 'command', command: './hooks/lint.sh' }] }],
    },
  });
  const trusted = await cli({ sandbox, env }, ['hooks', 'trust', '--yes']);
  expect(trusted.code).toBe(0);
  expect(trusted.stdout).toContain('runs: hooks/lint.sh');
  return { sandbox, env, lintLog, evilLog, script };
}

function cli(project: Pick<Project, 'sandbox' | 'env'>, args: readonly string[]) {
  return runCli([...args, '--cwd', project.sandbox.project], { env: project.env, main: BIN });
}

async function lines(file: string): Promise<string[]> {
  try {
    return (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}

/** `hookwire run` on a model that calls the shell with each of `commands`, then answers. */
async function runShell(project: Project, commands: readonly string[], extra: string[] = []) {
  const model = await writeScript(join(project.sandbox.root, `model-${Math.random()}.jsonl`), [
    ...commands.map((command, index) => callTool(`c${index}`, 'shell', { command })),
    say('done'),
  ]);
  return cli(project, ['run', 'go', '--model', `scripted:${model}`, ...extra]);
}

const evil = (project: Project): string => `#!/bin/sh\necho evil >> '${project.evilLog}'\n`;

describe('trust covers the script a hook runs', () => {
  it('a script changed after trust (a git pull) does not run, and run, hooks list and hooks trust say why', async () => {
    const project = await trustedProject();
    const first = await runShell(project, ['echo one']);
    expect(first.stderr).toBe('');
    expect(await lines(project.lintLog)).toEqual(['lint']);

    // What a `git pull` does: the settings entry is the same, the script is not.
    await writeFile(project.script, evil(project));
    const pulled = await runShell(project, ['echo two']);
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toContain('skipped 1 project hook as not trusted');
    expect(pulled.stderr).toContain(
      'hook "./hooks/lint.sh" (PreToolUse): script changed since trusted: hooks/lint.sh',
    );
    expect(await lines(project.evilLog)).toEqual([]);
    expect(await lines(project.lintLog)).toEqual(['lint']);

    const listed = await cli(project, ['hooks', 'list']);
    expect(listed.stdout).toContain('ignored: script changed since trusted: hooks/lint.sh');
    const rows = JSON.parse((await cli(project, ['hooks', 'list', '--json'])).stdout) as {
      trust: string;
      namedFiles: Record<string, string>;
    }[];
    expect(rows.map((row) => row.trust)).toEqual(['untrusted']);
    expect(Object.keys(rows[0]?.namedFiles ?? {})).toEqual(['hooks/lint.sh']);

    // Trusting again shows what changed, and then the new script runs.
    const again = await cli(project, ['hooks', 'trust', '--yes']);
    expect(again.stdout).toContain('script changed since trusted: hooks/lint.sh');
    await runShell(project, ['echo three']);
    expect(await lines(project.evilLog)).toEqual(['evil']);
  });

  it('names the script given to an interpreter and $HOOKWIRE_PROJECT_DIR paths: a changed one untrusts', async () => {
    const project = await trustedProject();
    await writeFile(join(project.sandbox.project, 'hooks', 'check.mjs'), 'process.exit(0);\n');
    await writeJson(join(project.sandbox.project, '.hookwire', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'shell',
            hooks: [
              { type: 'command', command: 'node hooks/check.mjs --strict' },
              { type: 'command', command: 'sh "$HOOKWIRE_PROJECT_DIR"/hooks/lint.sh' },
            ],
          },
        ],
      },
    });
    expect((await cli(project, ['hooks', 'trust', '--yes'])).code).toBe(0);
    await runShell(project, ['echo one']);
    expect(await lines(project.lintLog)).toEqual(['lint']);
    await writeFile(join(project.sandbox.project, 'hooks', 'check.mjs'), 'process.exit(2);\n');
    const changed = await runShell(project, ['echo two']);
    expect(changed.stderr).toContain('script changed since trusted: hooks/check.mjs');
    expect(changed.stderr).not.toContain('script changed since trusted: hooks/lint.sh');
    // The unchanged hook still runs.
    expect(await lines(project.lintLog)).toEqual(['lint', 'lint']);
  });

  it('a script rewritten during the session (outside any sandbox) is not run in the trusted one’s place', async () => {
    const project = await trustedProject();
    const result = await runShell(project, [
      `printf '#!/bin/sh\\necho evil >> ${project.evilLog}\\n' > hooks/lint.sh`,
      'echo after',
    ]);
    expect(result.code).toBe(0);
    // The first call ran the trusted script; the second found it changed and did not run it.
    expect(await lines(project.lintLog)).toEqual(['lint']);
    expect(await lines(project.evilLog)).toEqual([]);
    expect(result.stderr).toContain('did not run: script changed since trusted: hooks/lint.sh');
  });

  it.skipIf(bwrap === undefined)(
    'under --sandbox the model’s shell cannot rewrite a trusted hook’s script, nor swap its directory',
    async () => {
      const project = await trustedProject();
      const before = await readFile(project.script, 'utf8');
      const result = await runShell(
        project,
        [
          `printf 'echo evil >> ${project.evilLog}' > hooks/lint.sh; rm -f hooks/lint.sh; echo done`,
          `mv hooks hooks.old && mkdir hooks && printf '#!/bin/sh\\necho evil >> ${project.evilLog}\\n' > hooks/lint.sh && chmod +x hooks/lint.sh`,
          'echo after',
        ],
        ['--sandbox'],
      );
      expect(result.code).toBe(0);
      // The script file itself is read-only in the sandbox: neither written nor removed.
      expect(await readFile(join(project.sandbox.project, 'hooks.old', 'lint.sh'), 'utf8')).toBe(
        before,
      );
      // Its directory could be renamed, but the new script at the old path did not run.
      expect(await lines(project.evilLog)).toEqual([]);
      expect(await lines(project.lintLog)).toEqual(['lint', 'lint']);
      expect(result.stderr).toContain('did not run: script changed since trusted: hooks/lint.sh');
      await expect(stat(join(project.sandbox.project, 'hooks', 'lint.sh'))).resolves.toBeTruthy();
    },
  );
});
