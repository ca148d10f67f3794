import { statSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, isAbsolute, resolve } from 'node:path';
import {
  mergeSettingsFiles,
  type EffectiveSettings,
  type HookTrust,
  type SettingsFileStatus,
  type UntrustedPlugin,
} from './effective-settings.ts';
import type {
  DiscoveredPlugin,
  PluginDirectory,
  PluginEnablement,
} from '../plugins/plugin-directory.ts';
import type { ParsedSettingsFile } from './parse-settings-text.ts';
import { SettingsError } from './settings-error.ts';
import { SETTINGS_LIMITS, settingsTooLargeIssue } from './settings-limits.ts';
import type { SettingsIssue } from './settings-issue.ts';
import { DIALECT_NAMES, type DialectName } from '../dialects/vocabulary.ts';
import type { readForeignSettings } from '../dialects/foreign-settings.ts';
import { foreignSources, type ForeignSource } from '../dialects/foreign-sources.ts';
import {
  MCP_JSON_FILE,
  SETTINGS_LAYERS,
  settingsSources,
  type SettingsDiscoveryOptions,
  type SettingsSource,
} from './settings-layer.ts';
import { NO_FILE_POLICY } from './policy-settings.ts';

type ReadOutcome =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'failed'; readonly issue: SettingsIssue };

async function readSource(source: SettingsSource): Promise<ReadOutcome> {
  try {
    // Checked before reading, so a huge file (or a device) is refused without loading it. Most
    // layers do not exist: a synchronous stat that answers `undefined` for them costs neither an
    // exception nor a trip through the thread pool, on every start of every command.
    const info = statSync(source.file, { throwIfNoEntry: false });
    if (info === undefined && !source.required) return { kind: 'missing' };
    const { size } = info ?? (await stat(source.file));
    if (size > SETTINGS_LIMITS.maxBytes)
      return { kind: 'failed', issue: settingsTooLargeIssue(source.file, size) };
    return { kind: 'text', text: await readFile(source.file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !source.required) return { kind: 'missing' };
    const message =
      code === 'ENOENT'
        ? 'settings file not found'
        : code === 'EISDIR'
          ? 'settings path is a directory, not a file'
          : `settings file cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    const fix =
      code === 'ENOENT'
        ? 'check the path given to --settings (relative paths are resolved against the working directory)'
        : code === 'EISDIR'
          ? 'point to the JSON file itself'
          : 'make the file readable, or remove it';
    return { kind: 'failed', issue: { file: source.file, path: '', message, fix } };
  }
}

async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

/** Whether `path` is `directory` or lies beneath it (both absolute, already real). */
export function isInsideDirectory(path: string, directory: string): boolean {
  const rest = relative(directory, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

/**
 * Whether the hooks and loosening settings of a settings file need trust: those of every file
 * hookwire looked up inside the project (the `project` and `local` layers: hookwire's own
 * `.hookwire/settings*.json`, `.mcp.json`, and the dialects' `.claude/`, `.gemini/`, `.codex/`,
 * `.kimi/` files), decided by the path looked up and not by where a symbolic link resolves: a
 * `.hookwire/settings.json` linked to a file outside the project is still the project's. The
 * user's own layers (`managed`, `user`, `extra`) never need it, wherever they are.
 */
export function fileNeedsTrust(source: {
  readonly layer: string;
  readonly file: string;
}): Promise<boolean> {
  return Promise.resolve(source.layer === 'project' || source.layer === 'local');
}

/** Options of `loadSettings`. */
export interface LoadSettingsOptions extends SettingsDiscoveryOptions {
  /**
   * Read the other tools' settings files (`src/hook-kinds/dialects/`): default true, within what
   * the `dialects` setting allows; false (`--no-dialects`) reads none of them.
   */
  readonly dialects?: boolean;
  /**
   * Trust for the hooks of files inside the project (see `HookTrust`). Without it every hook
   * runs, as a library caller that vouches for its project expects; the CLI always passes it.
   */
  readonly trust?: HookTrust;
  /** `--plugin-dir` directories, in order (see `hook-kinds/plugins/plugin-directory.ts`). */
  readonly pluginDirs?: readonly string[];
  /** Where relative `pluginDirs` resolve. Default: the working directory. */
  readonly pluginBaseDir?: string;
}

/**
 * Loads the settings of every layer (managed policy, user, project, local, then each
 * `--settings` file; see `settingsSources` for the paths and `EffectiveSettings` for how they
 * merge). Files are read in parallel; a missing layer file is skipped, a missing `--settings`
 * file is an error, and a path already read by an earlier layer is read once. Every issue of
 * every file is collected: when there is any, throws one `SettingsError` listing them all.
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<EffectiveSettings> {
  const sources = settingsSources(options);
  const foreign = foreignSources(options);
  const seen = new Set<string>();
  const duplicates = sources.map((source) => {
    const duplicate = seen.has(source.file);
    seen.add(source.file);
    return duplicate;
  });
  const foreignDuplicates = foreign.map((source) => {
    const duplicate = seen.has(source.file);
    seen.add(source.file);
    return duplicate;
  });
  const mcpJsonSource: SettingsSource = {
    layer: 'project',
    file: join(resolve(options.projectDir), MCP_JSON_FILE),
    required: false,
  };
  const [mcpJson, outcomes, foreignOutcomes] = await Promise.all([
    readSource(mcpJsonSource),
    Promise.all(
      sources.map((source, index) =>
        duplicates[index] === true ? Promise.resolve(undefined) : readSource(source),
      ),
    ),
    Promise.all(
      foreign.map((source, index) =>
        foreignDuplicates[index] === true
          ? Promise.resolve(undefined)
          : readSource({ ...source, required: false }),
      ),
    ),
  ]);

  // The parser (and its schemas) loads only when there is a file to parse: a run without
  // settings files never pays for it.
  const parser = outcomes.some((outcome) => outcome?.kind === 'text')
    ? await import('./parse-settings-text.ts')
    : undefined;
  const issues: SettingsIssue[] = [];
  const parsedFiles: ParsedSettingsFile[] = [];
  const files: SettingsFileStatus[] = [];
  sources.forEach((source, index) => {
    const outcome = outcomes[index];
    const base = { layer: source.layer, file: source.file };
    if (outcome === undefined) files.push({ ...base, status: 'duplicate' });
    else if (outcome.kind === 'missing') files.push({ ...base, status: 'missing' });
    else if (outcome.kind === 'failed') issues.push(outcome.issue);
    else if (parser !== undefined) {
      const result = parser.readSettingsText(outcome.text, base);
      for (const issue of result.issues) issues.push(issue);
      if (result.parsed !== undefined) parsedFiles.push(result.parsed);
      files.push({ ...base, status: 'loaded' });
    }
  });
  // The project's `.mcp.json` (servers only) merges just before the project settings.
  if (mcpJson.kind === 'failed') issues.push(mcpJson.issue);
  else if (mcpJson.kind === 'text') {
    const { readMcpJsonText } = await import('./mcp-servers.ts');
    const read = readMcpJsonText(mcpJson.text, mcpJsonSource.file);
    for (const issue of read.issues) issues.push(issue);
    const at = parsedFiles.findIndex(
      (parsed) => parsed.layer !== 'managed' && parsed.layer !== 'user',
    );
    parsedFiles.splice(at < 0 ? parsedFiles.length : at, 0, {
      file: mcpJsonSource.file,
      layer: 'project',
      allowManagedHooksOnly: false,
      policy: NO_FILE_POLICY,
      disableAllHooks: false,
      groups: [],
      mcpServers: read.servers,
      agents: [],
    });
  }
  if (issues.length > 0) throw new SettingsError(issues);
  // Likewise the dialects' reader, only when another tool's file exists.
  const foreignReader = foreignOutcomes.some((outcome) => outcome?.kind === 'text')
    ? (await import('../dialects/foreign-settings.ts')).readForeignSettings
    : undefined;
  const dialects = loadDialectLayers(
    parsedFiles,
    foreign,
    foreignOutcomes,
    options.dialects !== false,
    foreignReader,
  );
  for (const status of dialects.files) files.push(status);
  const warnings = dialects.warnings;
  const trust = options.trust;
  const projectReal = await realPathOf(options.projectDir);
  const plugins = await loadPlugins(dialects.ordered, options, projectReal);
  for (const warning of plugins.warnings) warnings.push(warning);
  // The trusted plugins' hooks and MCP servers load after every layer, in the user layer.
  const contents =
    plugins.trusted.length === 0
      ? undefined
      : await (await import('../plugins/plugin-contents.ts')).readPluginContents(plugins.trusted);
  for (const warning of contents?.warnings ?? []) warnings.push(warning);
  for (const read of contents?.files ?? [])
    files.push({
      layer: 'user',
      file: read.file,
      status: 'loaded',
      ...(read.dialect === undefined ? {} : { dialect: read.dialect }),
    });
  const ordered = [...dialects.ordered, ...(contents?.parsed ?? [])];
  const pluginFields = { plugins: plugins.trusted, untrustedPlugins: plugins.untrusted };
  if (trust === undefined)
    return { ...mergeSettingsFiles(ordered), files, warnings, ...pluginFields };
  const needing = await Promise.all(ordered.map((parsed) => fileNeedsTrust(parsed)));
  const filesNeedingTrust = new Set(
    ordered.filter((_, index) => needing[index] === true).map((parsed) => parsed.file),
  );
  const withFiles = await withNamedFiles(ordered, resolve(options.projectDir), projectReal);
  return {
    ...mergeSettingsFiles(withFiles, { trust: { ...trust, filesNeedingTrust } }),
    files,
    warnings,
    ...pluginFields,
  };
}

/**
 * The plugin directories of `--plugin-dir`, the `plugins` settings and the installed plugins
 * `enabledPlugins` turns on (the last file that sets a key decides), split by trust: a plugin
 * whose directory lies inside the project, or that a file inside the project named or enabled,
 * needs the trust record to hold its content's fingerprint (`hookwire hooks trust`). Nothing is
 * read when nothing names a plugin.
 */
async function loadPlugins(
  ordered: readonly ParsedSettingsFile[],
  options: LoadSettingsOptions,
  projectReal: string,
): Promise<{
  trusted: PluginDirectory[];
  untrusted: UntrustedPlugin[];
  warnings: readonly string[];
}> {
  const settings = ordered.flatMap((parsed) => parsed.plugins ?? []);
  const enabledPlugins = new Map<string, PluginEnablement>();
  for (const parsed of ordered)
    for (const [key, enabled] of Object.entries(parsed.enabledPlugins ?? {}))
      enabledPlugins.set(key, { enabled, file: parsed.file, layer: parsed.layer });
  const pluginDirs = options.pluginDirs ?? [];
  if (
    pluginDirs.length === 0 &&
    settings.length === 0 &&
    ![...enabledPlugins.values()].some((value) => value.enabled)
  )
    return { trusted: [], untrusted: [], warnings: [] };
  const { discoverPlugins } = await import('../plugins/plugin-directory.ts');
  const found = await discoverPlugins({
    projectDir: options.projectDir,
    pluginDirs,
    ...(options.pluginBaseDir === undefined ? {} : { baseDir: options.pluginBaseDir }),
    settings,
    enabledPlugins,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const trust = options.trust;
  const trusted: DiscoveredPlugin[] = [];
  const untrusted: UntrustedPlugin[] = [];
  for (const plugin of found.plugins) {
    const inProject = isInsideDirectory(plugin.plugin.root, projectReal);
    const fromProject = plugin.layer === 'project' || plugin.layer === 'local';
    if (trust === undefined || trust.trustAll || (!inProject && !fromProject)) {
      trusted.push(plugin);
      continue;
    }
    const { pluginContentHash, pluginFingerprint } =
      await import('../plugins/plugin-fingerprint.ts');
    const hash = await pluginContentHash(plugin.plugin.root).catch((error: unknown) =>
      error instanceof Error ? error : new Error(String(error)),
    );
    if (hash instanceof Error) {
      untrusted.push({
        plugin: plugin.plugin,
        file: plugin.file,
        fingerprint: '',
        reason: hash.message,
      });
      continue;
    }
    const fingerprint = pluginFingerprint(plugin.plugin.name, hash);
    if (trust.trusted.has(fingerprint)) trusted.push(plugin);
    else
      untrusted.push({
        plugin: plugin.plugin,
        file: plugin.file,
        fingerprint,
        reason: inProject
          ? 'a plugin inside the project runs once trusted, and again after any change'
          : `named by ${plugin.file}, a file inside the project: it runs once trusted, and again after any change`,
      });
  }
  return {
    trusted: trusted.map((plugin) => plugin.plugin),
    untrusted,
    warnings: found.warnings,
  };
}

/**
 * `parsedFiles` with each command and process hook's `namedFiles`: the project files its
 * command runs and their content (`named-files.ts`), read in parallel. Hooks of every layer get
 * them, so the same hook in two files stays one hook.
 */
async function withNamedFiles(
  parsedFiles: readonly ParsedSettingsFile[],
  projectDir: string,
  projectReal: string,
): Promise<ParsedSettingsFile[]> {
  const { moduleFileOf, namedFilesOf } = await import('./named-files.ts');
  return Promise.all(
    parsedFiles.map(async (parsed) => {
      if (parsed.groups.length === 0) return parsed;
      const groups = await Promise.all(
        parsed.groups.map(async (group) => ({
          ...group,
          hooks: await Promise.all(
            group.hooks.map(async (hook) => {
              if (hook.type === 'module') {
                const namedFiles = await moduleFileOf(hook.modulePath, projectDir, projectReal);
                return namedFiles === undefined ? hook : { ...hook, namedFiles };
              }
              if (hook.type !== 'command' && hook.type !== 'process') return hook;
              const namedFiles = await namedFilesOf(hook.command, projectDir, [projectReal]);
              return namedFiles === undefined ? hook : { ...hook, namedFiles };
            }),
          ),
        })),
      );
      return { ...parsed, groups };
    }),
  );
}

/**
 * Reads the other tools' files the `dialects` setting allows (the managed policy's value binds,
 * else the last file's that sets it; `enabled` false reads none) and puts them in merge order:
 * each right after hookwire's own files of its layer. Files that exist but are not read are said
 * once, in one warning.
 */
function loadDialectLayers(
  parsedFiles: readonly ParsedSettingsFile[],
  foreign: readonly ForeignSource[],
  outcomes: readonly (ReadOutcome | undefined)[],
  enabled: boolean,
  reader: typeof readForeignSettings | undefined,
): { ordered: ParsedSettingsFile[]; files: SettingsFileStatus[]; warnings: string[] } {
  const managed = parsedFiles.find((parsed) => parsed.layer === 'managed' && parsed.dialects);
  // The user's own files decide which dialects load; a project's file (which needs trust) can
  // only turn off that project's own dialect files, never the user's ~/.claude/settings.json.
  const own = (parsed: ParsedSettingsFile): boolean =>
    parsed.layer !== 'project' && parsed.layer !== 'local';
  const setting =
    managed ?? parsedFiles.findLast((parsed) => own(parsed) && parsed.dialects !== undefined);
  const projectSetting =
    managed === undefined
      ? parsedFiles.findLast((parsed) => !own(parsed) && parsed.dialects !== undefined)
      : undefined;
  const allowedOwn = new Set<string>(enabled ? (setting?.dialects ?? DIALECT_NAMES) : []);
  const allowedInProject = new Set(
    [...allowedOwn].filter((dialect) =>
      (projectSetting?.dialects ?? DIALECT_NAMES).includes(dialect as DialectName),
    ),
  );
  const warnings: string[] = [];
  const files: SettingsFileStatus[] = [];
  const notLoaded: string[] = [];
  const excludedBy = new Set<string>();
  const byLayer = new Map<string, ParsedSettingsFile[]>();
  foreign.forEach((source, index) => {
    const outcome = outcomes[index];
    const base = { layer: source.layer, file: source.file, dialect: source.dialect };
    // Missing files of other tools are the rule, not news, and a path read already (a project
    // that is the home directory) is read once: neither is listed.
    if (outcome === undefined || outcome.kind === 'missing') return;
    if (outcome.kind === 'failed') {
      warnings.push(`${outcome.issue.file}: ${outcome.issue.message}: none of its hooks is loaded`);
      return;
    }
    const inProject = source.layer === 'project' || source.layer === 'local';
    if (!(inProject ? allowedInProject : allowedOwn).has(source.dialect)) {
      // A config.toml without hooks is not a hooks file: nothing to say about it.
      if (!source.file.endsWith('.toml') || /\bhooks\b/.test(outcome.text))
        notLoaded.push(source.file);
      if (inProject && allowedOwn.has(source.dialect) && projectSetting !== undefined)
        excludedBy.add(projectSetting.file);
      else excludedBy.add(setting?.file ?? 'settings');
      return;
    }
    if (reader === undefined) return; // not loaded only when no file has text
    const result = reader(outcome.text, source);
    for (const warning of result.warnings) warnings.push(warning);
    files.push({ ...base, status: 'loaded' });
    const list = byLayer.get(source.layer) ?? [];
    list.push(result.parsed);
    byLayer.set(source.layer, list);
  });
  if (notLoaded.length > 0)
    warnings.push(
      `not loading the hooks of ${notLoaded.join(', ')}: ${enabled ? `"dialects" in ${[...excludedBy].join(' and ')} leaves ${notLoaded.length === 1 ? 'it' : 'them'} out` : '--no-dialects'}`,
    );
  const ordered: ParsedSettingsFile[] = [];
  for (const layer of SETTINGS_LAYERS) {
    for (const parsed of parsedFiles) if (parsed.layer === layer) ordered.push(parsed);
    for (const parsed of byLayer.get(layer) ?? []) ordered.push(parsed);
  }
  return { ordered, files, warnings };
}
