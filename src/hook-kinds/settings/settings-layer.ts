import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where a settings file comes from. Layers load and merge in this order — `managed` (policy),
 * `user`, `project`, `local`, `extra` (`--settings` files, in the order given) — so policy
 * hooks run first and always run, and a later layer can add hooks but never remove or replace
 * an earlier layer's.
 */
export type SettingsLayer = 'managed' | 'user' | 'project' | 'local' | 'extra';

/** The layers in merge order. */
export const SETTINGS_LAYERS: readonly SettingsLayer[] = [
  'managed',
  'user',
  'project',
  'local',
  'extra',
];

/** The managed policy file used when `HOOKWIRE_MANAGED_SETTINGS` is not set. */
/** The project file of MCP servers Claude Code and Gemini CLI read (`{"mcpServers": …}`). */
export const MCP_JSON_FILE = '.mcp.json';

export const DEFAULT_MANAGED_SETTINGS_FILE = '/etc/hookwire/managed-settings.json';

/** Environment variables settings discovery reads. */
export interface SettingsEnvironment {
  /** Path of the managed policy file; default `/etc/hookwire/managed-settings.json`. */
  readonly HOOKWIRE_MANAGED_SETTINGS?: string | undefined;
  /** Home directory holding `.hookwire/settings.json`; default `os.homedir()`. */
  readonly HOOKWIRE_HOME?: string | undefined;
  /** Root under which machine-wide files of other tools are read (`/etc/windsurf/…`); default `/`. */
  readonly HOOKWIRE_SYSTEM_ROOT?: string | undefined;
}

/** One file to load: its layer, absolute path, and whether it must exist. */
export interface SettingsSource {
  readonly layer: SettingsLayer;
  readonly file: string;
  /** `--settings` files must exist; layer files that are missing are skipped. */
  readonly required: boolean;
}

/** Options for finding the settings files. */
export interface SettingsDiscoveryOptions {
  /** The project root: its `.hookwire/settings.json` and `.hookwire/settings.local.json` load. */
  readonly projectDir: string;
  /** `--settings` files, in order; relative paths resolve against the process's working directory. */
  readonly extraFiles?: readonly string[];
  /** Defaults to `process.env`. */
  readonly env?: SettingsEnvironment;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The settings files of every layer, in merge order (see `SettingsLayer`). */
export function settingsSources(options: SettingsDiscoveryOptions): SettingsSource[] {
  const env = options.env ?? process.env;
  const home = nonEmpty(env.HOOKWIRE_HOME) ?? homedir();
  const projectDir = resolve(options.projectDir);
  return [
    {
      layer: 'managed',
      file: resolve(nonEmpty(env.HOOKWIRE_MANAGED_SETTINGS) ?? DEFAULT_MANAGED_SETTINGS_FILE),
      required: false,
    },
    { layer: 'user', file: resolve(home, '.hookwire', 'settings.json'), required: false },
    { layer: 'project', file: join(projectDir, '.hookwire', 'settings.json'), required: false },
    { layer: 'local', file: join(projectDir, '.hookwire', 'settings.local.json'), required: false },
    ...(options.extraFiles ?? []).map((file): SettingsSource => ({
      layer: 'extra',
      file: resolve(file),
      required: true,
    })),
  ];
}
