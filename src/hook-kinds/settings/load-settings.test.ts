import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookGroupsFor } from './effective-settings.ts';
import { kindOf, type HookConfig } from '../registry.ts';
import { listEffectiveHooks } from './list-effective-hooks.ts';
import { loadSettings } from './load-settings.ts';
import { SettingsError } from './settings-error.ts';
import { settingsSources } from './settings-layer.ts';

/** What a hook runs, as its kind says. */
const hookTarget = (hook: HookConfig): string => kindOf(hook).target(hook);

let root: string;
let home: string;
let projectDir: string;
let managedFile: string;
let env: { HOOKWIRE_HOME: string; HOOKWIRE_MANAGED_SETTINGS: string };

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookwire-settings-'));
  home = join(root, 'home');
  projectDir = join(root, 'project');
  managedFile = join(root, 'etc', 'managed-settings.json');
  env = { HOOKWIRE_HOME: home, HOOKWIRE_MANAGED_SETTINGS: managedFile };
  await mkdir(projectDir, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const files = {
  managed: () => managedFile,
  user: () => join(home, '.hookwire', 'settings.json'),
  project: () => join(projectDir, '.hookwire', 'settings.json'),
  local: () => join(projectDir, '.hookwire', 'settings.local.json'),
};

async function write(file: string, content: unknown): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function hooksFile(event: string, matcher: string | undefined, ...hooks: object[]): object {
  return {
    hooks: {
      [event]: [
        {
          ...(matcher === undefined ? {} : { matcher }),
          hooks: hooks.map((hook) => ({ type: 'command', ...hook })),
        },
      ],
    },
  };
}

/** Paths relative to the temporary root, for readable assertions. */
const short = (file: string): string => relative(root, file);

async function loadError(options: Parameters<typeof loadSettings>[0]): Promise<SettingsError> {
  try {
    await loadSettings(options);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('expected loadSettings to fail');
}

describe('loadSettings', () => {
  it('loads nothing, without error, when no settings file exists', async () => {
    const settings = await loadSettings({ projectDir, env });
    expect(settings.events).toEqual({});
    expect(settings.files.map((file) => [file.layer, short(file.file), file.status])).toEqual([
      ['managed', 'etc/managed-settings.json', 'missing'],
      ['user', 'home/.hookwire/settings.json', 'missing'],
      ['project', 'project/.hookwire/settings.json', 'missing'],
      ['local', 'project/.hookwire/settings.local.json', 'missing'],
    ]);
  });

  it('merges the groups of every layer in the order managed, user, project, local, extra', async () => {
    // Written in reverse so the order cannot come from file creation time.
    const second = await write(
      join(root, 'second.json'),
      hooksFile('PreToolUse', 'Bash', { command: 'extra-2' }),
    );
    const first = await write(
      join(root, 'first.json'),
      hooksFile('PreToolUse', 'Bash', { command: 'extra-1' }),
    );
    await write(files.local(), hooksFile('PreToolUse', 'Bash', { command: 'local' }));
    await write(files.project(), hooksFile('PreToolUse', 'Bash', { command: 'project' }));
    await write(files.user(), hooksFile('BeforeTool', 'Bash', { command: 'user' }));
    await write(files.managed(), hooksFile('PreToolUse', 'Bash', { command: 'managed' }));

    const settings = await loadSettings({ projectDir, extraFiles: [first, second], env });
    const groups = hookGroupsFor(settings, 'PreToolUse');
    expect(
      groups.map((group) => [group.layer, group.registeredAs, group.hooks.map(hookTarget)[0]]),
    ).toEqual([
      ['managed', 'PreToolUse', 'managed'],
      ['user', 'BeforeTool', 'user'],
      ['project', 'PreToolUse', 'project'],
      ['local', 'PreToolUse', 'local'],
      ['extra', 'PreToolUse', 'extra-1'],
      ['extra', 'PreToolUse', 'extra-2'],
    ]);
    expect(hookGroupsFor(settings, 'Stop')).toEqual([]);
  });

  it('runs a hook defined in several layers once, at its first place, and says where else it is defined', async () => {
    await write(
      files.user(),
      hooksFile('PreToolUse', 'Edit|Write', { command: './guard.sh', timeout: 30, name: 'guard' }),
    );
    await write(
      files.project(),
      hooksFile(
        'BeforeTool',
        'Write|Edit',
        { command: './guard.sh', timeout: '30s', name: 'same guard, other name' },
        { command: './audit.sh' },
      ),
    );
    await write(
      files.local(),
      hooksFile('PreToolUse', 'Edit|Write', { command: './guard.sh', timeout: 30 }),
    );

    const settings = await loadSettings({ projectDir, env });
    const groups = hookGroupsFor(settings, 'PreToolUse');
    expect(groups.map((group) => [group.layer, group.hooks.map(hookTarget)])).toEqual([
      ['user', ['./guard.sh']],
      ['project', ['./audit.sh']],
      // the local group had only the duplicate: it is dropped
    ]);
    expect(groups[0]?.hooks[0]?.name).toBe('guard');
    expect(groups[0]?.hooks[0]?.alsoDefinedIn.map((place) => place.replace(root, '<tmp>'))).toEqual(
      [
        'project: <tmp>/project/.hookwire/settings.json at hooks.BeforeTool[0].hooks[0]',
        'local: <tmp>/project/.hookwire/settings.local.json at hooks.PreToolUse[0].hooks[0]',
      ],
    );
    expect(groups[1]?.hooks[0]?.alsoDefinedIn).toEqual([]);
  });

  it('keeps hooks that differ in matcher, event, timeout or failClosed', async () => {
    await write(files.user(), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] },
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: './guard.sh', failClosed: true }],
          },
          { matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: 5 }] },
          { matcher: 'Edit', hooks: [{ type: 'command', command: './guard.sh' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] },
        ],
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }],
      },
    });
    const settings = await loadSettings({ projectDir, env });
    expect(hookGroupsFor(settings, 'PreToolUse').map((group) => group.path)).toEqual([
      'hooks.PreToolUse[0]',
      'hooks.PreToolUse[1]',
      'hooks.PreToolUse[2]',
      'hooks.PreToolUse[3]',
    ]);
    expect(hookGroupsFor(settings, 'PreToolUse')[0]?.hooks[0]?.alsoDefinedIn).toHaveLength(1);
    expect(hookGroupsFor(settings, 'PostToolUse')).toHaveLength(1);
  });

  it('ignores every non-managed hook when the managed policy sets allowManagedHooksOnly, and lists them as ignored', async () => {
    await write(files.managed(), {
      allowManagedHooksOnly: true,
      ...hooksFile('PreToolUse', 'Bash', { command: './policy.sh', failClosed: true }),
    });
    await write(files.user(), hooksFile('PreToolUse', 'Bash', { command: './mine.sh' }));
    await write(
      files.project(),
      hooksFile('Stop', undefined, { command: './done.sh', timeout: '500ms' }),
    );

    const settings = await loadSettings({ projectDir, env });
    expect(settings.allowManagedHooksOnly).toBe(true);
    expect(
      hookGroupsFor(settings, 'PreToolUse').map((group) => group.hooks.map(hookTarget)[0]),
    ).toEqual(['./policy.sh']);
    expect(hookGroupsFor(settings, 'Stop')).toEqual([]);
    const rows = listEffectiveHooks(settings).map((row) => ({
      ...row,
      file: short(row.file),
      ignoredReason: row.ignoredReason?.replace(root, '<tmp>'),
    }));
    expect(rows).toMatchInlineSnapshot(`
      [
        {
          "alsoDefinedIn": [],
          "command": "./policy.sh",
          "event": "PreToolUse",
          "failClosed": true,
          "file": "etc/managed-settings.json",
          "fingerprint": "19364ab184686d91fee5e104a048bd985d56de2901ac9deaef8faf77438512de",
          "ignoredReason": undefined,
          "layer": "managed",
          "matcher": "Bash",
          "name": "./policy.sh",
          "path": "hooks.PreToolUse[0].hooks[0]",
          "registeredAs": "PreToolUse",
          "sequential": false,
          "status": "active",
          "timeout": "1m",
          "timeoutMs": 60000,
          "trust": "not-required",
        },
        {
          "alsoDefinedIn": [],
          "command": "./mine.sh",
          "event": "PreToolUse",
          "failClosed": false,
          "file": "home/.hookwire/settings.json",
          "fingerprint": "827f3dc2c3d115be4016178ccc6d1d9a9d777eae0d74d32621333074924e4106",
          "ignoredReason": "the managed policy <tmp>/etc/managed-settings.json sets allowManagedHooksOnly: only managed hooks run",
          "layer": "user",
          "matcher": "Bash",
          "name": "./mine.sh",
          "path": "hooks.PreToolUse[0].hooks[0]",
          "registeredAs": "PreToolUse",
          "sequential": false,
          "status": "ignored",
          "timeout": "1m",
          "timeoutMs": 60000,
          "trust": "not-required",
        },
        {
          "alsoDefinedIn": [],
          "command": "./done.sh",
          "event": "Stop",
          "failClosed": false,
          "file": "project/.hookwire/settings.json",
          "fingerprint": "d53b877374c7ef6aeceb899edd2a4e4bb08e3781ff3b2dc26a28df73b75190ea",
          "ignoredReason": "the managed policy <tmp>/etc/managed-settings.json sets allowManagedHooksOnly: only managed hooks run",
          "layer": "project",
          "matcher": "*",
          "name": "./done.sh",
          "path": "hooks.Stop[0].hooks[0]",
          "registeredAs": "Stop",
          "sequential": false,
          "status": "ignored",
          "timeout": "500ms",
          "timeoutMs": 500,
          "trust": "not-required",
        },
      ]
    `);
  });

  it('lets a later layer add hooks but never drop a managed one', async () => {
    await write(files.managed(), hooksFile('PreToolUse', '*', { command: './policy.sh' }));
    await write(
      files.user(),
      hooksFile('PreToolUse', '', { command: './policy.sh', name: 'my copy' }),
    );
    const settings = await loadSettings({ projectDir, env });
    const groups = hookGroupsFor(settings, 'PreToolUse');
    expect(groups).toHaveLength(1);
    expect(groups[0]?.layer).toBe('managed');
    expect(groups[0]?.hooks[0]?.name).toBe('./policy.sh');
  });

  it('fails when a --settings file is missing, naming it', async () => {
    const error = await loadError({ projectDir, extraFiles: [join(root, 'nope.json')], env });
    expect(error.issues.map((issue) => ({ ...issue, file: short(issue.file) }))).toEqual([
      {
        file: 'nope.json',
        path: '',
        message: 'settings file not found',
        fix: 'check the path given to --settings (relative paths are resolved against the working directory)',
      },
    ]);
  });

  it('resolves a relative --settings path against the working directory', async () => {
    const file = await write(
      join(root, 'relative.json'),
      hooksFile('Stop', undefined, { command: 'x' }),
    );
    const settings = await loadSettings({
      projectDir,
      extraFiles: [relative(process.cwd(), file)],
      env,
    });
    expect(hookGroupsFor(settings, 'Stop')[0]?.file).toBe(file);
  });

  it('collects the issues of every file into one error, in layer order', async () => {
    await write(files.user(), hooksFile('PreTooluse', undefined, { command: 'x' }));
    await write(files.project(), '{\n  "hooks": {\n    "Stop": [],\n  }\n}\n');
    await write(
      files.local(),
      hooksFile('Stop', undefined, { command: 'y', timeout: '30' }, { command: '' }),
    );
    const error = await loadError({ projectDir, extraFiles: [join(root, 'missing.json')], env });
    expect(error.message.replaceAll(root, '<tmp>')).toMatchInlineSnapshot(`
      "Invalid hook settings (5 issues):
        <tmp>/home/.hookwire/settings.json: hooks.PreTooluse: unknown event "PreTooluse"; fix: did you mean "PreToolUse"? valid events: SessionStart, UserPromptSubmit, BeforeModel, BeforeToolSelection, AfterModel, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, SubagentStart, SubagentStop, Stop, StopFailure, Interrupt, PreCompact, PostCompact, Notification, SessionEnd (Gemini CLI aliases: BeforeAgent, BeforeTool, AfterTool, AfterAgent, PreCompress)
        <tmp>/project/.hookwire/settings.json:4:3: invalid JSON at line 4, column 3: trailing comma before "}"; fix: remove the comma after the last property
        <tmp>/project/.hookwire/settings.local.json: hooks.Stop[0].hooks[0].timeout: timeout "30" has no unit, so it is ambiguous (seconds or milliseconds?); fix: write 30 (seconds) or "30s"
        <tmp>/project/.hookwire/settings.local.json: hooks.Stop[0].hooks[1].command: command is empty; fix: write the shell command to run, e.g. "./hooks/guard.sh"
        <tmp>/missing.json: settings file not found; fix: check the path given to --settings (relative paths are resolved against the working directory)"
    `);
    expect(error.issues.map((issue) => short(issue.file))).toEqual([
      'home/.hookwire/settings.json',
      'project/.hookwire/settings.json',
      'project/.hookwire/settings.local.json',
      'project/.hookwire/settings.local.json',
      'missing.json',
    ]);
    expect(error.issues[1]).toMatchObject({ line: 4, column: 3 });
  });

  it('reads a file once when two layers name the same path', async () => {
    await write(
      join(home, '.hookwire', 'settings.json'),
      hooksFile('Stop', undefined, { command: 'x' }),
    );
    const settings = await loadSettings({ projectDir: home, env });
    expect(settings.files.map((file) => [file.layer, file.status])).toEqual([
      ['managed', 'missing'],
      ['user', 'loaded'],
      ['project', 'duplicate'],
      ['local', 'missing'],
    ]);
    expect(hookGroupsFor(settings, 'Stop')).toHaveLength(1);
  });

  it('reports a settings path that is a directory', async () => {
    await mkdir(files.project(), { recursive: true });
    const error = await loadError({ projectDir, env });
    expect(error.issues[0]?.message).toBe('settings path is a directory, not a file');
  });
});

describe('settingsSources', () => {
  it('uses /etc/hookwire/managed-settings.json and the home directory when the environment sets nothing', () => {
    const sources = settingsSources({ projectDir: '/work/p', env: {} });
    expect(sources[0]).toEqual({
      layer: 'managed',
      file: '/etc/hookwire/managed-settings.json',
      required: false,
    });
    expect(sources[1]?.file).toMatch(/\.hookwire\/settings\.json$/);
    expect(sources.slice(2).map((source) => source.file)).toEqual([
      '/work/p/.hookwire/settings.json',
      '/work/p/.hookwire/settings.local.json',
    ]);
  });

  it('takes the managed file and the home directory from the environment', () => {
    const sources = settingsSources({
      projectDir: '/work/p',
      extraFiles: ['/a.json', '/b.json'],
      env: { HOOKWIRE_MANAGED_SETTINGS: '/policy/m.json', HOOKWIRE_HOME: '/users/ada' },
    });
    expect(sources.map((source) => [source.layer, source.file, source.required])).toEqual([
      ['managed', '/policy/m.json', false],
      ['user', '/users/ada/.hookwire/settings.json', false],
      ['project', '/work/p/.hookwire/settings.json', false],
      ['local', '/work/p/.hookwire/settings.local.json', false],
      ['extra', '/a.json', true],
      ['extra', '/b.json', true],
    ]);
  });
});
