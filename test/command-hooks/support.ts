import { mkdtemp, mkdir, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createCommandRunner,
  loadSettings,
  type CommandRunner,
  type EffectiveSettings,
} from '../../src/hook-kinds/group/index.ts';

/** A temp project with isolated settings layers, hook scripts and a shared command runner. */
export interface HookProject {
  readonly dir: string;
  readonly runner: CommandRunner;
  /** Writes an executable script under `hooks/` and returns the command that runs it. */
  script(name: string, body: string): Promise<string>;
  /** Writes `settings` as the project's `.hookwire/settings.json` and loads every layer. */
  settings(hooks: Record<string, unknown>, extra?: readonly string[]): Promise<EffectiveSettings>;
  close(): Promise<void>;
}

export async function createHookProject(): Promise<HookProject> {
  const dir = await mkdtemp(join(tmpdir(), 'hookwire-command-hooks-'));
  await mkdir(join(dir, 'hooks'));
  await mkdir(join(dir, '.hookwire'));
  const runner = createCommandRunner();
  return {
    dir,
    runner,
    async script(name, body) {
      const file = join(dir, 'hooks', name);
      await writeFile(file, `#!/bin/sh\n${body}\n`);
      await chmod(file, 0o755);
      return `"$HOOKWIRE_PROJECT_DIR/hooks/${name}"`;
    },
    async settings(hooks, extra = []) {
      await writeFile(join(dir, '.hookwire', 'settings.json'), JSON.stringify({ hooks }));
      return loadSettings({
        projectDir: dir,
        extraFiles: extra,
        env: {
          HOOKWIRE_HOME: join(dir, 'home'),
          HOOKWIRE_MANAGED_SETTINGS: join(dir, 'no-managed-settings.json'),
        },
      });
    },
    async close() {
      await runner.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function group(
  hooks: readonly Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...extra, hooks: hooks.map((hook) => ({ type: 'command', ...hook })) };
}
