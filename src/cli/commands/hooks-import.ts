import { writeStdout } from '../output/stdout.ts';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { importGroups, readDialectFiles } from '../../hook-kinds/dialects/import-settings.ts';
import { DIALECT_NAMES, type DialectName } from '../../hook-kinds/dialects/vocabulary.ts';
import { readSettingsText, formatSettingsIssues } from '../../hook-kinds/settings/index.ts';
import { shellQuote } from '../../supervision/process-confinement.ts';
import { CliError } from '../cli-error.ts';
import type { HookGroupConfig } from '../../hook-kinds/settings/hook-config.ts';
import {
  assertProjectDir,
  loadCommandSettings,
  projectDirOf,
  type SettingsCommandOptions,
} from '../settings-options.ts';

/** What `--from` accepts: each dialect, and `claude-plugin` (plugin directories). */
export const IMPORT_SOURCES: readonly string[] = [...DIALECT_NAMES, 'claude-plugin'];

/** Options of `hookwire hooks import`. */
export interface HooksImportOptions extends Pick<SettingsCommandOptions, 'cwd' | 'pluginDir'> {
  /** `--from claude|gemini|codex|kimi|copilot|cursor|windsurf|factory|augment|codebuddy|qwen|claude-plugin`. */
  readonly from: string;
  /** `--write FILE`: write the settings there (a new file) instead of printing them. */
  readonly write?: string;
}

/**
 * `hookwire hooks import --from DIALECT [--write FILE]`: converts the hooks of that tool's files
 * (user, project and local, as the dialect layers read them) to one hookwire settings file
 * (see `importGroups`), checked by hookwire's own strict reader before it is printed or written.
 * What could not be carried, and why, goes to stderr, one line each. Returns 0; 1 (CliError) for
 * an unknown dialect, no file to import, or an existing `--write` file.
 */
export async function hooksImportCommand(options: HooksImportOptions): Promise<number> {
  if (!IMPORT_SOURCES.includes(options.from))
    throw new CliError(
      `--from ${options.from}: unknown tool; use one of ${IMPORT_SOURCES.join(', ')}.`,
    );
  if (options.pluginDir !== undefined && options.from !== 'claude-plugin')
    throw new CliError(
      `--plugin-dir goes with --from claude-plugin (--from ${options.from} reads that tool's own files).`,
    );
  await assertProjectDir(options);
  const projectDir = projectDirOf(options);
  const read =
    options.from === 'claude-plugin'
      ? await readPluginHooks(options)
      : await readDialectFiles(options.from as DialectName, { projectDir });
  if (read.files.length === 0)
    throw new CliError(
      options.from === 'claude-plugin'
        ? `--from claude-plugin: no plugin with hooks found for ${projectDir} (give --plugin-dir DIR, or name it in the "plugins" setting or enable an installed one; see "Claude Code plugins" in the README).`
        : `--from ${options.from}: no ${options.from} settings file found for ${projectDir} (looked where hookwire reads them; see "Hooks from other tools" in the README).`,
    );
  const imported = importGroups(read.groups);
  const text = JSON.stringify(imported.settings, null, 2) + '\n';
  const target = options.write === undefined ? undefined : resolve(options.write);
  const check = readSettingsText(text, { file: target ?? '<import>', layer: 'project' });
  if (check.issues.length > 0)
    throw new CliError(
      `the imported settings do not validate:\n${formatSettingsIssues(check.issues)}`,
    );
  for (const line of [...read.warnings, ...imported.notes])
    process.stderr.write(`hookwire: not imported: ${line}\n`);
  if (target === undefined) writeStdout(text);
  else {
    try {
      await writeFile(target, text, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new CliError(
          `--write ${options.write}: the file exists; hookwire does not overwrite it (choose a new file, or merge by hand).`,
        );
      throw error;
    }
    process.stderr.write(`hookwire: wrote ${target} from ${read.files.join(', ')}\n`);
  }
  return 0;
}

/**
 * The hooks of the plugins `--plugin-dir` names (or, without it, every plugin hookwire finds for
 * the project: the `plugins` setting and the installed plugins `enabledPlugins` turns on), read as
 * `hookwire run` reads them: in the layout's dialect, `${CLAUDE_PLUGIN_ROOT}` (and the layout's
 * other root variables) replaced by the plugin's directory in each command. hookwire's own
 * settings have no per-hook environment, so each command gets the variables the plugin's hooks
 * run with as an `export` in front of it: a script that reads `$CLAUDE_PLUGIN_ROOT` finds the same
 * directory, and the hook stays apart from the same handler in a settings file. The plugin's
 * agents and MCP servers are not hooks: said on stderr (keep `--plugin-dir` for them).
 */
async function readPluginHooks(
  options: HooksImportOptions,
): Promise<{ groups: HookGroupConfig[]; warnings: string[]; files: string[] }> {
  // Reading is not running: every plugin found counts (trust is asked when the import runs).
  const settings = await loadCommandSettings({ ...options, dialects: true }, true);
  const { readPluginContents } = await import('../../hook-kinds/plugins/plugin-contents.ts');
  const contents = await readPluginContents(settings.plugins);
  const groups: HookGroupConfig[] = [];
  const warnings = [...contents.warnings];
  const files: string[] = [];
  for (const parsed of contents.parsed) {
    if (parsed.groups.length > 0) files.push(parsed.file);
    for (const group of parsed.groups) groups.push(withRootExported(group));
    if (parsed.mcpServers.length > 0)
      warnings.push(
        `${parsed.file}: the plugin's MCP servers (${parsed.mcpServers.map((server) => server.name).join(', ')}) are not hooks: keep --plugin-dir (or the "plugins" setting) for them`,
      );
  }
  return { groups, warnings, files };
}

/** `group` with each command's environment as `export NAME='value';` in front of it. */
function withRootExported(group: HookGroupConfig): HookGroupConfig {
  return {
    ...group,
    hooks: group.hooks.map((hook) => {
      if (hook.type !== 'command' || hook.env === undefined) return hook;
      const { env, ...rest } = hook;
      const exports = Object.entries(env)
        .map(([name, value]) => `export ${name}=${shellQuote(value)};`)
        .join(' ');
      return { ...rest, command: `${exports} ${hook.command}` };
    }),
  };
}
