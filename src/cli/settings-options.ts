import { resolve } from 'node:path';
import { loadSettings, type EffectiveSettings } from '../hook-kinds/settings/index.ts';

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
  return loadSettings({ projectDir: projectDirOf(options), extraFiles: options.settings ?? [] });
}
