import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SettingsEnvironment, SettingsLayer } from '../settings/settings-layer.ts';
import { DIALECTS } from './dialect.ts';
import { DIALECT_NAMES, type DialectName } from './vocabulary.ts';

/** One other tool's settings file to read: its layer, absolute path and dialect. */
export interface ForeignSource {
  readonly layer: SettingsLayer;
  readonly file: string;
  readonly dialect: DialectName;
}

/**
 * The other tools' settings files (each dialect's `sources`), where their users keep them, each in the hookwire layer it
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
  const sources: ForeignSource[] = [];
  // Layer by layer (user, then project, then local), each dialect's files in `DIALECTS` order.
  for (const layer of ['user', 'project', 'local'] as const)
    for (const dialect of DIALECT_NAMES)
      for (const source of DIALECTS[dialect].sources)
        if (source.layer === layer)
          sources.push({
            layer,
            file:
              source.under === 'home'
                ? resolve(home, ...source.path)
                : join(project, ...source.path),
            dialect,
          });
  return sources;
}
