import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolCallAction } from '../events/index.ts';
import type { AgentHook } from '../hooks/agent-hook.ts';
import { createHookContext } from '../hooks/hook-context.ts';
import { loadHookSettings, openHookSession } from './hook-session.ts';
import { SettingsError } from '../hook-kinds/settings/settings-error.ts';
import type { HelperCommandRunner } from '../supervision/helper-runner.ts';

let root: string;
let projectDir: string;
let env: { HOOKWIRE_HOME: string; HOOKWIRE_MANAGED_SETTINGS: string };

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookwire-hook-session-'));
  projectDir = join(root, 'project');
  env = {
    HOOKWIRE_HOME: join(root, 'home'),
    HOOKWIRE_MANAGED_SETTINGS: join(root, 'etc', 'managed-settings.json'),
  };
  await mkdir(projectDir, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(file: string, content: unknown): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(content));
  return file;
}

/** A PreToolUse group whose hook rewrites `tool_input.path` to `value` (or denies). */
function preToolUse(script: string): object {
  return {
    hooks: {
      PreToolUse: [{ hooks: [{ type: 'command', command: `node -e ${JSON.stringify(script)}` }] }],
    },
  };
}

const rewritePath = (value: string): string =>
  `process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',tool_input:{path:${JSON.stringify(value)}}}}))`;

describe('openHookSession', () => {
  it('loads every layer then the extra files, and composes the in-process hooks after them', async () => {
    await write(join(projectDir, '.hookwire', 'settings.json'), preToolUse(rewritePath('project')));
    await write(join(root, 'extra.json'), preToolUse(rewritePath('extra')));
    const seen: unknown[] = [];
    const inProcess: AgentHook = {
      name: 'in-process',
      onToolCall(_context, event) {
        seen.push(event.args);
        return ToolCallAction.run();
      },
    };
    const session = await openHookSession({
      projectDir,
      settingsFiles: ['extra.json'],
      settingsBaseDir: root,
      hooks: [inProcess],
      env,
      runnerMode: 'direct',
    });
    try {
      expect(session.settings.files.map((file) => [file.layer, file.status])).toEqual([
        ['managed', 'missing'],
        ['user', 'missing'],
        ['project', 'loaded'],
        ['local', 'missing'],
        ['extra', 'loaded'],
      ]);
      expect(session.commandHooks).toHaveLength(2);
      const resolution = await session.stack.resolveToolCall(createHookContext(), {
        toolName: 'read_file',
        toolCallId: 'call-1',
        args: { path: 'model' },
        originalArgs: { path: 'model' },
      });
      // project rewrote, then extra rewrote over it, then the in-process hook saw the result.
      expect(resolution.args).toEqual({ path: 'extra' });
      expect(seen).toEqual([{ path: 'extra' }]);
    } finally {
      await session.close();
    }
  });

  it('starts the spawn helper with the session only when the settings have hooks', async () => {
    const bare = await openHookSession({ projectDir, env });
    try {
      // Nothing configured: a session that spawns nothing starts nothing (the helper comes up on
      // the first run, e.g. a shell tool call).
      expect((bare.runner as HelperCommandRunner).helperProcessId).toBeUndefined();
    } finally {
      await bare.close();
    }
    await write(join(projectDir, '.hookwire', 'settings.json'), preToolUse(rewritePath('x')));
    const hooked = await openHookSession({ projectDir, env });
    try {
      // With hooks, it is up before the first one fires.
      expect((hooked.runner as HelperCommandRunner).helperProcessId).toEqual(expect.any(Number));
    } finally {
      await hooked.close();
    }
  });

  it('throws the SettingsError before starting anything when a file is invalid', async () => {
    await write(join(root, 'bad.json'), { hooks: { NoSuchEvent: [] } });
    await expect(
      openHookSession({ projectDir, settingsFiles: [join(root, 'bad.json')], env }),
    ).rejects.toBeInstanceOf(SettingsError);
  });

  it('closes the disposers in reverse order, once, and runs all of them when one throws', async () => {
    const session = await openHookSession({ projectDir, env, runnerMode: 'direct' });
    const log: string[] = [];
    session.defer(() => {
      log.push('first');
    });
    session.defer(() => {
      log.push('second');
      throw new Error('second failed');
    });
    session.defer(async () => {
      log.push('third');
    });
    await expect(session.close()).rejects.toThrow('second failed');
    await expect(session.close()).rejects.toThrow('second failed');
    expect(log).toEqual(['third', 'second', 'first']);
    // The runner was closed too: it refuses new runs.
    await expect(
      session.runner.run({ command: 'true', cwd: projectDir, input: '', timeoutMs: 1000 }),
    ).rejects.toThrow();
  });

  it('loadHookSettings resolves relative extra files against settingsBaseDir', async () => {
    await write(join(root, 'extra.json'), preToolUse(rewritePath('x')));
    const settings = await loadHookSettings({
      projectDir,
      settingsFiles: ['extra.json'],
      settingsBaseDir: root,
      env,
    });
    expect(settings.files.at(-1)).toEqual({
      layer: 'extra',
      file: join(root, 'extra.json'),
      status: 'loaded',
    });
  });
});

describe('openHookSession plugins', () => {
  it("gives the session (and its hook kinds' host) the plugin directories of --plugin-dir and the plugins setting", async () => {
    const flagged = join(root, 'flagged');
    await write(join(flagged, '.claude-plugin', 'plugin.json'), { name: 'flagged' });
    const named = join(root, 'named');
    await write(join(named, '.claude-plugin', 'plugin.json'), { name: 'named' });
    await write(join(env.HOOKWIRE_HOME, '.hookwire', 'settings.json'), { plugins: [named] });
    const session = await openHookSession({ projectDir, env, pluginDirs: [flagged] });
    try {
      expect(session.plugins.map((plugin) => [plugin.name, plugin.origin, plugin.inline])).toEqual([
        ['flagged', 'flag', true],
        ['named', 'setting', false],
      ]);
      expect(session.settings.plugins).toBe(session.plugins);
    } finally {
      await session.close();
    }
  });

  it('refuses to open with an invalid plugin manifest, before anything starts', async () => {
    const broken = join(root, 'broken');
    await write(join(broken, '.claude-plugin', 'plugin.json'), { name: 'has space' });
    const error = await openHookSession({ projectDir, env, pluginDirs: [broken] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).issues[0]).toMatchObject({
      file: join(broken, '.claude-plugin', 'plugin.json'),
      path: 'name',
    });
  });
});
