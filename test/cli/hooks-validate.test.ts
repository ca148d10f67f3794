import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, runCli, settingsWith, writeJson } from './support.ts';

describe('hookwire hooks validate', () => {
  it('exits 0 with a one-line summary of the hooks and files found valid', async () => {
    const sandbox = await createSandbox();
    await writeJson(
      join(sandbox.home, '.hookwire', 'settings.json'),
      settingsWith({ Stop: ['echo a'] }),
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PreToolUse: ['echo b', 'echo c'] }),
    );

    const outcome = await runCli(['hooks', 'validate', '--cwd', sandbox.project], {
      env: sandbox.env,
    });

    expect(outcome).toMatchObject({
      code: 0,
      stderr: '',
      stdout: '3 hooks in 2 files are valid\n',
    });
  });

  it('exits 1 and prints every error of every file with its location, JSON path and fix', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: '(unclosed',
            hooks: [{ type: 'command', command: 'echo a', timeout: '5 parsecs' }],
          },
        ],
        NoSuchEvent: [],
      },
    });
    const broken = join(sandbox.root, 'broken.json');
    await writeFile(broken, '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n');

    const outcome = await runCli(
      ['hooks', 'validate', '--cwd', sandbox.project, '--settings', broken],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    const projectFile = join(sandbox.project, '.hookwire', 'settings.json');
    const lines = outcome.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^Invalid hook settings \(4 issues\):$/);
    expect(outcome.stderr).toContain(`${projectFile}: hooks.PreToolUse[0].matcher:`);
    expect(outcome.stderr).toContain(`${projectFile}: hooks.PreToolUse[0].hooks[0].timeout:`);
    expect(outcome.stderr).toContain(`${projectFile}: hooks.NoSuchEvent:`);
    expect(outcome.stderr).toMatch(
      new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+`),
    );
    for (const line of lines.slice(1)) expect(line).toContain('; fix: ');
  });

  it('exits 1 naming a --settings file that does not exist', async () => {
    const sandbox = await createSandbox();
    const missing = join(sandbox.root, 'missing.json');

    const outcome = await runCli(
      ['hooks', 'validate', '--cwd', sandbox.project, '--settings', missing],
      { env: sandbox.env },
    );

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`${missing}: settings file not found`);
  });
});
