import { readdirSync } from 'node:fs';
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
 * | copilot | `~/.copilot/hooks/*.json` | `.github/hooks/*.json` | |
 * | cursor | `~/.cursor/hooks.json` | `.cursor/hooks.json` | |
 * | windsurf | `~/.codeium/windsurf/hooks.json` | `.windsurf/hooks.json` | |
 *
 * and, in the managed layer, Windsurf's machine-wide `/etc/windsurf/hooks.json` (under
 * `HOOKWIRE_SYSTEM_ROOT`, default `/`). A `*.json` path lists its directory's `.json` files in
 * name order (a missing directory lists none).
 */
export function foreignSources(options: {
  readonly projectDir: string;
  readonly env?: SettingsEnvironment;
}): ForeignSource[] {
  const env = options.env ?? process.env;
  const home =
    env.HOOKWIRE_HOME === undefined || env.HOOKWIRE_HOME === '' ? homedir() : env.HOOKWIRE_HOME;
  const system =
    env.HOOKWIRE_SYSTEM_ROOT === undefined || env.HOOKWIRE_SYSTEM_ROOT === ''
      ? '/'
      : env.HOOKWIRE_SYSTEM_ROOT;
  const project = resolve(options.projectDir);
  const roots = { home, project, system };
  const sources: ForeignSource[] = [];
  // Layer by layer (managed, user, project, local), each dialect's files in `DIALECTS` order.
  for (const layer of ['managed', 'user', 'project', 'local'] as const)
    for (const dialect of DIALECT_NAMES)
      for (const source of DIALECTS[dialect].sources)
        if (source.layer === layer)
          for (const file of sourceFiles(resolve(roots[source.under], ...source.path)))
            sources.push({ layer, file, dialect });
  return sources;
}

/** The file `path` names, or, for `DIR/*.json`, the directory's `.json` files by name. */
function sourceFiles(path: string): string[] {
  if (!path.endsWith('*.json')) return [path];
  const directory = path.slice(0, -'*.json'.length);
  try {
    return readdirSync(directory)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => join(directory, name));
  } catch {
    return []; // no such directory: the rule, not news
  }
}
