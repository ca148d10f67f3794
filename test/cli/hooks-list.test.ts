import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, runCli, settingsWith, writeJson } from './support.ts';

interface Row {
  event: string;
  registeredAs: string;
  matcher: string;
  name: string;
  command: string;
  layer: string;
  status: string;
  ignoredReason?: string;
  alsoDefinedIn: string[];
}

describe('hookwire hooks list', () => {
  it('lists the hooks of every layer with the layer each came from, in merge order', async () => {
    const sandbox = await createSandbox();
    await writeJson(sandbox.managedFile, settingsWith({ PreToolUse: ['echo managed'] }));
    await writeJson(
      join(sandbox.home, '.hookwire', 'settings.json'),
      settingsWith({ PreToolUse: ['echo user'] }),
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ BeforeTool: ['echo project'] }),
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.local.json'),
      settingsWith({ Stop: ['echo local'] }),
    );
    const extra = await writeJson(
      join(sandbox.root, 'extra.json'),
      settingsWith({ SessionStart: ['echo extra'] }),
    );

    const outcome = await runCli(
      ['hooks', 'list', '--json', '--cwd', sandbox.project, '--settings', extra],
      { env: sandbox.env },
    );

    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const rows = JSON.parse(outcome.stdout) as Row[];
    expect(
      rows.map((row) => [row.event, row.registeredAs, row.command, row.layer, row.status]),
    ).toEqual([
      ['SessionStart', 'SessionStart', 'echo extra', 'extra', 'active'],
      ['PreToolUse', 'PreToolUse', 'echo managed', 'managed', 'active'],
      ['PreToolUse', 'PreToolUse', 'echo user', 'user', 'active'],
      ['PreToolUse', 'BeforeTool', 'echo project', 'project', 'active'],
      ['Stop', 'Stop', 'echo local', 'local', 'active'],
    ]);
  });

  it('lists a hook defined in two layers once, naming the other definition', async () => {
    const sandbox = await createSandbox();
    await writeJson(
      join(sandbox.home, '.hookwire', 'settings.json'),
      settingsWith({ Stop: ['echo same'] }),
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ Stop: ['echo same'] }),
    );

    const outcome = await runCli(['hooks', 'list', '--json', '--cwd', sandbox.project], {
      env: sandbox.env,
    });

    const rows = JSON.parse(outcome.stdout) as Row[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.layer).toBe('user');
    expect(rows[0]?.alsoDefinedIn).toEqual([
      expect.stringContaining(join(sandbox.project, '.hookwire', 'settings.json')),
    ]);
  });

  it('shows the hooks a managed allowManagedHooksOnly policy ignores, with the reason', async () => {
    const sandbox = await createSandbox();
    await writeJson(sandbox.managedFile, {
      allowManagedHooksOnly: true,
      ...(settingsWith({ PreToolUse: ['echo policy'] }) as object),
    });
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PreToolUse: ['echo mine'] }),
    );

    const json = await runCli(['hooks', 'list', '--json', '--cwd', sandbox.project], {
      env: sandbox.env,
    });
    const table = await runCli(['hooks', 'list', '--cwd', sandbox.project], { env: sandbox.env });

    const rows = JSON.parse(json.stdout) as Row[];
    expect(rows.map((row) => [row.command, row.status])).toEqual([
      ['echo policy', 'active'],
      ['echo mine', 'ignored'],
    ]);
    expect(rows[1]?.ignoredReason).toContain('allowManagedHooksOnly');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(
      /PreToolUse\s+\*\s+echo mine\s+project\s+1m\s+-\s+ignored\s+trusted\s+echo mine/,
    );
    expect(table.stdout).toContain('ignored: the managed policy');
  });

  it('prints a readable table with the layer, options and the settings files consulted', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'shell|write_file',
            sequential: true,
            hooks: [
              {
                type: 'command',
                command: './guard.sh',
                name: 'guard',
                timeout: '5s',
                failClosed: true,
              },
            ],
          },
        ],
      },
    });

    const outcome = await runCli(['hooks', 'list', '--cwd', sandbox.project], { env: sandbox.env });

    expect(outcome.code).toBe(0);
    const lines = outcome.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^EVENT\s+MATCHER\s+NAME\s+LAYER\s+TIMEOUT\s+OPTIONS\s+STATUS\s+TRUST\s+COMMAND$/,
    );
    expect(lines[1]).toMatch(
      /^PreToolUse\s+shell\|write_file\s+guard\s+project\s+5s\s+fail-closed,sequential\s+active\s+trusted\s+\.\/guard\.sh$/,
    );
    expect(outcome.stdout).toContain(
      `guard: ${join(sandbox.project, '.hookwire', 'settings.json')} at hooks.PreToolUse[0].hooks[0]`,
    );
    expect(outcome.stdout).toMatch(/managed\s+missing\s+/);
  });

  it('says so when no hooks are configured', async () => {
    const sandbox = await createSandbox();

    const outcome = await runCli(['hooks', 'list', '--cwd', sandbox.project], { env: sandbox.env });

    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^No hooks configured\./);
  });

  it('exits 1 printing every settings issue when a layer is invalid', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      hooks: { NoSuchEvent: [] },
    });

    const outcome = await runCli(['hooks', 'list', '--cwd', sandbox.project], { env: sandbox.env });

    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('NoSuchEvent');
  });
});
