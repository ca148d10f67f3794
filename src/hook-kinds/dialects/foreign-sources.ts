import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SettingsEnvironment, SettingsLayer } from '../settings/settings-layer.ts';
import type { DialectName } from './vocabulary.ts';

/** One other tool's settings file to read: its layer, absolute path and dialect. */
export interface ForeignSource {
  readonly layer: SettingsLayer;
  readonly file: string;
  readonly dialect: DialectName;
}

/**
 * The other tools' settings files, where their users keep them, each in the hookwire layer it
 * stands for (they load right after hookwire's own file of that layer, so the merge rules of
 * `SettingsLayer` apply unchanged: user, then project, then local):
 *
 * | dialect | user (`~` = `HOOKWIRE_HOME`, default the home directory) | project | local |
 * | --- | --- | --- | --- |
 * | claude | `~/.claude/settings.json` | `.claude/settings.json` | `.claude/settings.local.json` |
 * | gemini | `~/.gemini/settings.json` | `.gemini/settings.json` | |
 * | codex | `~/.codex/hooks.json`, `~/.codex/config.toml` (`[hooks]`) | `.codex/hooks.json`, `.codex/config.toml` | |
 * | kimi | `~/.kimi-code/config.toml` (`[[hooks]]`) | | |
 */
export function foreignSources(options: {
  readonly projectDir: string;
  readonly env?: SettingsEnvironment;
}): ForeignSource[] {
  const env = options.env ?? process.env;
  const home =
    env.HOOKWIRE_HOME === undefined || env.HOOKWIRE_HOME === '' ? homedir() : env.HOOKWIRE_HOME;
  const project = resolve(options.projectDir);
  const user = (dialect: DialectName, ...path: string[]): ForeignSource => ({
    layer: 'user',
    file: resolve(home, ...path),
    dialect,
  });
  const at = (layer: SettingsLayer, dialect: DialectName, ...path: string[]): ForeignSource => ({
    layer,
    file: join(project, ...path),
    dialect,
  });
  return [
    user('claude', '.claude', 'settings.json'),
    user('gemini', '.gemini', 'settings.json'),
    user('codex', '.codex', 'hooks.json'),
    user('codex', '.codex', 'config.toml'),
    user('kimi', '.kimi-code', 'config.toml'),
    at('project', 'claude', '.claude', 'settings.json'),
    at('project', 'gemini', '.gemini', 'settings.json'),
    at('project', 'codex', '.codex', 'hooks.json'),
    at('project', 'codex', '.codex', 'config.toml'),
    at('local', 'claude', '.claude', 'settings.local.json'),
  ];
}
