import { describe, expect, it } from 'vitest';
import type { CommandHookConfig } from '../settings/hook-config.ts';
import { readForeignSettings } from './foreign-settings.ts';
import type { DialectName } from './vocabulary.ts';

function read(dialect: DialectName, value: unknown, layer: 'user' | 'project' = 'project') {
  const file = `/home/me/${dialect}.json`;
  const result = readForeignSettings(JSON.stringify(value), { file, layer, dialect });
  return {
    groups: result.parsed.groups,
    hooks: result.parsed.groups.map((group) => group.hooks[0] as CommandHookConfig),
    warnings: result.warnings,
  };
}

describe('flat hook files (Copilot CLI, Cursor, Windsurf)', () => {
  it.runIf(process.platform === 'linux')(
    'picks the command for Linux as Copilot CLI and VS Code write them: linux, then bash, then command',
    () => {
      const { hooks, warnings } = read('copilot', {
        version: 1,
        hooks: {
          preToolUse: [
            { type: 'command', linux: 'on-linux', bash: 'on-bash', command: 'default' },
            { type: 'command', bash: 'on-bash', powershell: 'on-windows', command: 'default' },
            { type: 'command', command: 'default', windows: 'on-windows', osx: 'on-mac' },
          ],
        },
      });
      expect(hooks.map((hook) => hook.command)).toEqual(['on-linux', 'on-bash', 'default']);
      expect(warnings).toEqual([]);
    },
  );

  it('skips a hook with only a Windows command, with a warning, and loads its siblings', () => {
    const { hooks, warnings } = read('copilot', {
      hooks: {
        sessionStart: [
          { type: 'command', powershell: './start.ps1' },
          { type: 'command', windows: 'start.cmd' },
          { type: 'command', bash: './start.sh' },
        ],
      },
    });
    expect(hooks.map((hook) => hook.command)).toEqual(['./start.sh']);
    expect(warnings).toEqual([
      expect.stringContaining('hooks.sessionStart[0]: has only a Windows command (powershell)'),
      expect.stringContaining('hooks.sessionStart[1]: has only a Windows command (windows)'),
    ]);
  });

  it('reads exec + args as a program started without a shell, shown quoted', () => {
    const { hooks } = read('copilot', {
      hooks: {
        preToolUse: [
          {
            type: 'command',
            exec: '/opt/my tools/guard',
            args: ['--name', 'it\'s "quoted"', '$HOME'],
          },
        ],
      },
    });
    expect(hooks[0]?.argv).toEqual(['/opt/my tools/guard', '--name', 'it\'s "quoted"', '$HOME']);
    expect(hooks[0]?.command).toBe(`'/opt/my tools/guard' --name 'it'\\''s "quoted"' '$HOME'`);
  });

  it('one unknown or bad field never disables another hook', () => {
    for (const [dialect, event] of [
      ['copilot', 'preToolUse'],
      ['cursor', 'beforeShellExecution'],
      ['windsurf', 'pre_run_command'],
    ] as const) {
      const { hooks, warnings } = read(dialect, {
        hooks: {
          [event]: [
            { command: 'first', bash: 'first', futureField: { nested: true } },
            { command: 'second', bash: 'second', timeout: 'soon', timeoutSec: -1 },
            'not a hook',
            { command: 'third', bash: 'third' },
          ],
          someFutureEvent: [{ command: 'x', bash: 'x' }],
        },
      });
      expect(
        hooks.map((hook) => hook.command),
        dialect,
      ).toEqual(['first', 'second', 'third']);
      expect(warnings.some((line) => line.includes(`hooks.${event}[0].futureField`))).toBe(true);
      expect(warnings.some((line) => line.includes('someFutureEvent'))).toBe(true);
    }
  });

  it('a specific event stands for its kind of call; a matcher on it widens nothing away', () => {
    const { groups, warnings } = read('cursor', {
      hooks: {
        beforeShellExecution: [{ command: 'guard', matcher: 'git' }],
        beforeMCPExecution: [{ command: 'mcp-guard' }],
        preToolUse: [{ command: 'generic', matcher: 'Shell|Write' }],
      },
    });
    expect(
      groups.map((group) => [group.registeredAs, group.matcherSource, group.foreignNames]),
    ).toEqual([
      ['beforeShellExecution', 'shell', false],
      ['beforeMCPExecution', 'mcp__.*', false],
      ['preToolUse', 'Shell|Write', true],
    ]);
    expect(groups[1]?.matcher.matches('mcp__files__read')).toBe(true);
    expect(groups[1]?.matcher.matches('shell')).toBe(false);
    expect(groups.map((group) => group.dialectEvent)).toEqual([
      'beforeShellExecution',
      'beforeMCPExecution',
      'preToolUse',
    ]);
    expect(warnings).toEqual([
      expect.stringContaining(
        'hooks.beforeShellExecution[0].matcher: beforeShellExecution already stands for one kind of tool call',
      ),
    ]);
  });

  it('Copilot CLI anchors its matchers and borrows Claude Code for PascalCase events', () => {
    const { groups } = read('copilot', {
      hooks: {
        preToolUse: [
          { bash: 'a', matcher: 'ba' },
          { bash: 'b', matcher: 'b.*' },
        ],
        PreToolUse: [{ command: 'c', matcher: 'Bash' }],
      },
    });
    expect(groups[0]?.matcher.matches('bash')).toBe(false);
    expect(groups[1]?.matcher.matches('bash')).toBe(true);
    expect(groups[2]).toMatchObject({ dialect: 'claude', registeredAs: 'PreToolUse' });
    expect(groups[2]?.dialectEvent).toBeUndefined();
    // Copilot CLI fails its preToolUse hooks closed, whatever their names.
    expect(groups.map((group) => (group.hooks[0] as CommandHookConfig).failClosed)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('runs Cursor user-level hooks from the file’s directory, project ones from the project', () => {
    const value = { version: 1, hooks: { stop: [{ command: './hooks/audit.sh' }] } };
    expect(read('cursor', value, 'user').hooks[0]?.cwd).toBe('/home/me');
    expect(read('cursor', value, 'project').hooks[0]?.cwd).toBeUndefined();
    const windsurf = read('windsurf', {
      hooks: { pre_run_command: [{ command: 'x', working_directory: 'tools', show_output: true }] },
    });
    expect(windsurf.hooks[0]?.cwd).toBe('tools');
    expect(windsurf.warnings).toEqual([]);
  });
});
