/**
 * Plugin discovery on the command line: `--plugin-dir` on `doctor`, `hooks list` and
 * `hooks trust`; a plugin inside the project is trusted as a whole by its content's hash and
 * untrusted by any change; an invalid manifest stops the command naming the file, the JSON path
 * and the fix.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, runCli, writeJson } from './support.ts';

describe('plugin discovery', () => {
  it('doctor lists a plugin inside the project as not trusted until hooks trust --plugin-dir records its content, and again after a change', async () => {
    const sandbox = await createSandbox();
    const env = { ...sandbox.env, HOOKWIRE_TRUST_PROJECT: undefined };
    const plugin = join(sandbox.project, 'plugins', 'guard');
    await writeJson(join(plugin, '.claude-plugin', 'plugin.json'), { name: 'guard' });
    await writeJson(join(plugin, 'hooks', 'hooks.json'), { hooks: {} });
    const doctor = async () => {
      const outcome = await runCli(
        ['doctor', '--json', '--cwd', sandbox.project, '--plugin-dir', 'plugins/guard'],
        { env, cwd: sandbox.project },
      );
      expect(outcome.code).toBe(0);
      const { plugins } = JSON.parse(outcome.stdout) as {
        plugins: { name: string; state: string; root: string }[];
      };
      expect(plugins.map((entry) => entry.name)).toEqual(['guard']);
      expect(plugins[0]?.root).toMatch(/plugins\/guard$/);
      return plugins[0]?.state;
    };
    expect(await doctor()).toMatch(/^not loaded: not trusted/);

    const trust = await runCli(
      ['hooks', 'trust', '--yes', '--cwd', sandbox.project, '--plugin-dir', 'plugins/guard'],
      { env, cwd: sandbox.project },
    );
    expect(trust.stderr).toBe('');
    expect(trust.stdout).toMatch(
      /plugin {3}guard at plugins\/guard \(flag: --plugin-dir plugins\/guard\)/,
    );
    expect(trust.code).toBe(0);
    expect(await doctor()).toBe('loaded');

    await writeFile(join(plugin, 'hooks', 'guard.sh'), 'echo changed\n');
    expect(await doctor()).toMatch(/^not loaded/);
  });

  it('hooks list refuses an invalid manifest, naming the file, the JSON path and the fix', async () => {
    const sandbox = await createSandbox();
    const plugin = join(sandbox.root, 'bad');
    await writeJson(join(plugin, '.claude-plugin', 'plugin.json'), {
      name: 'bad',
      hooks: '/etc/x.json',
    });
    const outcome = await runCli(
      ['hooks', 'list', '--cwd', sandbox.project, '--plugin-dir', plugin],
      {
        env: sandbox.env,
      },
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      `${join(plugin, '.claude-plugin', 'plugin.json')}: hooks: "/etc/x.json" is not a path inside the plugin; fix: write a path relative to the plugin directory`,
    );
  });
});
