import { resolve } from 'node:path';
import {
  loadHookSettings,
  openHookSession,
  type HookSession,
  type HookSessionOptions,
} from '../hook-kinds/hook-session.ts';
import type { EffectiveSettings } from '../hook-kinds/settings/index.ts';

/** The options every settings-reading command shares. */
export interface SettingsCommandOptions {
  /** `--settings FILE`, repeatable; loaded after the usual layers, in order. */
  readonly settings?: readonly string[];
  /** `--cwd DIR`: the project directory; default the process's working directory. */
  readonly cwd?: string;
}

/** The project directory of a command: `--cwd` resolved, else the working directory. */
export function projectDirOf(options: SettingsCommandOptions): string {
  return resolve(options.cwd ?? process.cwd());
}

/**
 * Loads every settings layer for the project plus the `--settings` files (relative to the
 * invocation's working directory). A `SettingsError` (every issue) propagates to the caller.
 */
export function loadCommandSettings(options: SettingsCommandOptions): Promise<EffectiveSettings> {
  return loadHookSettings({
    projectDir: projectDirOf(options),
    settingsFiles: options.settings ?? [],
  });
}

/**
 * Opens the hook session of a command (`run`, `hooks fire`): the same settings as
 * `loadCommandSettings`, adapted and composed by `openHookSession`. Close it when done.
 */
export function openCommandHookSession(
  options: SettingsCommandOptions,
  session: Omit<HookSessionOptions, 'projectDir' | 'settingsFiles'> = {},
): Promise<HookSession> {
  return openHookSession({
    ...session,
    projectDir: projectDirOf(options),
    settingsFiles: options.settings ?? [],
  });
}
