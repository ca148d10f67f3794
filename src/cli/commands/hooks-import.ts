import { writeStdout } from '../output/stdout.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { importRegistration } from '../../hook-kinds/ahp/ahp-registration.ts';
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
  /** `--from claude|gemini|codex|kimi|copilot|cursor|windsurf|factory|augment|codebuddy|qwen|claude-plugin`, or `ahp` (with `--file`). */
  readonly from: string;
  /** `--file REGISTRATION.json`: the AHP registration document to translate (`--from ahp` only). */
  readonly file?: string;
  /** `--write FILE`: write the settings there (a new file) instead of printing them. */
  readonly write?: string;
}

/**
 * `hookwire hooks import --from DIALECT [--write FILE]` (or `--from ahp --file REGISTRATION.json`): converts the hooks of that tool's files
 * (user, project and local, as the dialect layers read them) to one hookwire settings file
 * (see `importGroups`), checked by hookwire's own strict reader before it is printed or written.
 * What could not be carried, and why, goes to stderr, one line each. Returns 0; 1 (CliError) for
 * an unknown dialect, no file to import, or an existing `--write` file.
 */
export async function hooksImportCommand(options: HooksImportOptions): Promise<number> {
  if (options.from === 'ahp') return importAhp(options);
  if (!IMPORT_SOURCES.includes(options.from))
    throw new CliError(
      `--from ${options.from}: unknown tool; use one of ${IMPORT_SOURCES.join(', ')}, or ahp with --file.`,
    );
  if (options.file !== undefined)
    throw new CliError(
      `--file is for --from ahp (a registration document); --from ${options.from} reads that tool's own settings files.`,
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
  return emit(imported.settings, options, read.files, [...read.warnings, ...imported.notes]);
}

/**
 * `--from ahp --file REGISTRATION.json`: an AHP portable registration translated into `ahp`
 * entries (see `importRegistration`); an unreadable, non-JSON or invalid document is refused
 * naming the file and, for each problem, its JSON path.
 */
async function importAhp(options: HooksImportOptions): Promise<number> {
  if (options.file === undefined)
    throw new CliError('--from ahp needs --file REGISTRATION.json (an AHP registration document).');
  const file = resolve(options.file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `--file ${options.file}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${file}: not a JSON document (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const imported = importRegistration(document);
  if (!imported.ok)
    throw new CliError(
      `${file}: not an AHP registration hookwire can import:\n${imported.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n')}`,
    );
  return emit(imported.settings, options, [file], imported.notes);
}

/**
 * Checks the imported settings with hookwire's own strict reader, says on stderr what was not
 * carried, and prints them or writes them to the new `--write` file.
 */
async function emit(
  settings: unknown,
  options: HooksImportOptions,
  sources: readonly string[],
  notes: readonly string[],
): Promise<number> {
  const text = JSON.stringify(settings, null, 2) + '\n';
  const target = options.write === undefined ? undefined : resolve(options.write);
  const check = readSettingsText(text, { file: target ?? '<import>', layer: 'project' });
  if (check.issues.length > 0)
    throw new CliError(
      `the imported settings do not validate:\n${formatSettingsIssues(check.issues)}`,
    );
  for (const line of notes) process.stderr.write(`hookwire: not imported: ${line}\n`);
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
    process.stderr.write(`hookwire: wrote ${target} from ${sources.join(', ')}\n`);
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
