/**
 * Plugin directories: Claude Code's way of sharing hooks, agents and MCP servers (a directory with
 * `.claude-plugin/plugin.json`, `hooks/hooks.json`, `agents/*.md`, `.mcp.json`), and the same
 * layout under `.codex-plugin/` and `.cursor-plugin/`. `findPlugins` gathers them from where a
 * user names them, in this order (the first of a name wins, as Claude Code lets `--plugin-dir`
 * override an installed plugin of the same name):
 *
 * 1. `--plugin-dir DIR` (repeatable): `origin: 'flag'`, `inline: true` (Claude Code keys its
 *    configuration `"<name>@inline"`);
 * 2. the `plugins` setting (a list of directories; relative ones resolve against the project):
 *    `origin: 'setting'`;
 * 3. the plugins Claude Code installed, as it lists them: `~/.claude/plugins/installed_plugins.json`
 *    (`~` is `HOOKWIRE_HOME`, default the home directory; versions 1 and 2 of the file), each
 *    turned on by `enabledPlugins["<name>@<marketplace>"]: true` in the settings (Claude Code's or
 *    hookwire's; the last layer that sets a key wins): `origin: 'installed'`.
 *
 * A directory the user named that is missing, or a manifest that is not valid, fails loudly: one
 * `SettingsIssue` each, naming the file, the JSON path and the fix, thrown together as a
 * `SettingsError`. An installed plugin whose directory is gone is skipped with a warning, as
 * Claude Code does. Unknown manifest fields are ignored (newer Claude Code versions add some).
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { isJsonObject } from '../../wire/json-object.ts';
import { parseJsonText } from '../../wire/json-text.ts';
import { SettingsError } from '../settings/settings-error.ts';
import { formatJsonPath, type SettingsIssue } from '../settings/settings-issue.ts';
import type { SettingsEnvironment, SettingsLayer } from '../settings/settings-layer.ts';
import type { DialectName } from '../dialects/dialect-names.ts';

/** One plugin directory found (see the module comment). */
export interface PluginDirectory {
  readonly name: string;
  /** The directory, absolute, symbolic links resolved. */
  readonly root: string;
  /** From `--plugin-dir`: Claude Code spells its config key `"<name>@inline"`. */
  readonly inline: boolean;
  /** The parsed `.claude-plugin/plugin.json` (or `.codex-plugin/`, `.cursor-plugin/`); `{}` without one. */
  readonly manifest: Readonly<Record<string, unknown>>;
  readonly origin: 'flag' | 'setting' | 'installed';
  /** Which tool's layout it is (its manifest folder; `claude` without one): see `PLUGIN_LAYOUTS`. */
  readonly flavour: PluginFlavour;
}

/** One plugin layout: a tool's plugin directory, which differs from Claude Code's only in these. */
export interface PluginLayout {
  /** The folder holding `plugin.json`. */
  readonly folder: string;
  /** The dialect its `hooks/hooks.json` is written in. */
  readonly dialect: DialectName;
  /**
   * The variables naming the plugin's directory: each is set in its hooks' and MCP servers'
   * environment, and each `${VARIABLE}` is replaced by the directory in their commands.
   */
  readonly rootVariables: readonly string[];
  /** Its MCP server files, relative to the plugin's directory, in the order they are read. */
  readonly mcpFiles: readonly string[];
}

/**
 * The plugin layouts, in the order their manifest folders are looked for. Claude Code's
 * (`.claude-plugin/`, `${CLAUDE_PLUGIN_ROOT}`, `.mcp.json`); Codex's (`.codex-plugin/`, hooks in
 * Codex's dialect; published plugins read `CODEX_PLUGIN_ROOT` or `PLUGIN_ROOT`); Cursor's
 * (`.cursor-plugin/`, hooks in Cursor's `{"version": 1, "hooks": …}` format, `CURSOR_PLUGIN_ROOT`,
 * `mcp.json` as its plugin template writes it). Every layout also sets `CLAUDE_PLUGIN_ROOT`,
 * which plugins written for several tools fall back to.
 */
export const PLUGIN_LAYOUTS = {
  claude: {
    folder: '.claude-plugin',
    dialect: 'claude',
    rootVariables: ['CLAUDE_PLUGIN_ROOT'],
    mcpFiles: ['.mcp.json'],
  },
  codex: {
    folder: '.codex-plugin',
    dialect: 'codex',
    rootVariables: ['CLAUDE_PLUGIN_ROOT', 'CODEX_PLUGIN_ROOT', 'PLUGIN_ROOT'],
    mcpFiles: ['.mcp.json'],
  },
  cursor: {
    folder: '.cursor-plugin',
    dialect: 'cursor',
    rootVariables: ['CLAUDE_PLUGIN_ROOT', 'CURSOR_PLUGIN_ROOT'],
    mcpFiles: ['mcp.json', '.mcp.json'],
  },
} as const satisfies Readonly<Record<string, PluginLayout>>;

/** Which tool a plugin directory was written for, by its manifest folder. */
export type PluginFlavour = keyof typeof PLUGIN_LAYOUTS;

/** The flavours in the order their manifest folders are looked for. */
const FLAVOURS = Object.keys(PLUGIN_LAYOUTS) as PluginFlavour[];

/** A `plugins` entry of a settings file. */
export interface PluginSetting {
  readonly directory: string;
  readonly file: string;
  /** JSON path of the entry, e.g. `plugins[0]`. */
  readonly path: string;
  readonly layer: SettingsLayer;
}

/** An `enabledPlugins` key as the settings leave it (the last file that sets it). */
export interface PluginEnablement {
  readonly enabled: boolean;
  readonly file: string;
  readonly layer: SettingsLayer;
}

/** Options of `findPlugins`. */
export interface FindPluginsOptions {
  /** The project directory: relative `plugins` entries resolve against it. */
  readonly projectDir: string;
  /** `--plugin-dir` values, in order; relative ones resolve against `baseDir`. */
  readonly pluginDirs?: readonly string[];
  /** Where relative `pluginDirs` resolve. Default: the working directory. */
  readonly baseDir?: string;
  /** The `plugins` entries of the settings, in merge order. */
  readonly settings?: readonly PluginSetting[];
  /** `enabledPlugins` of the settings, merged (`"<name>@<marketplace>"` → the deciding value). */
  readonly enabledPlugins?: ReadonlyMap<string, PluginEnablement>;
  /** `HOOKWIRE_HOME` (the home whose `.claude/plugins/installed_plugins.json` is read). */
  readonly env?: SettingsEnvironment;
}

/** A plugin and what decided it: the file that named or enabled it (`--plugin-dir` for a flag). */
export interface DiscoveredPlugin {
  readonly plugin: PluginDirectory;
  /** The layer that named or enabled it (`extra` for a flag). */
  readonly layer: SettingsLayer;
  readonly file: string;
}

/** What `discoverPlugins` found. */
export interface PluginDiscovery {
  readonly plugins: readonly DiscoveredPlugin[];
  /** One line each: an installed plugin that could not be used, a name given twice. */
  readonly warnings: readonly string[];
}

/**
 * The plugin directories of `options` (see the module comment), each once. Throws a
 * `SettingsError` listing every directory that is missing and every manifest that is not valid.
 */
export async function findPlugins(options: FindPluginsOptions): Promise<PluginDirectory[]> {
  return (await discoverPlugins(options)).plugins.map((found) => found.plugin);
}

/** `findPlugins` with where each plugin came from and the warnings. */
export async function discoverPlugins(options: FindPluginsOptions): Promise<PluginDiscovery> {
  const issues: SettingsIssue[] = [];
  const warnings: string[] = [];
  const env = options.env ?? process.env;
  const home =
    env.HOOKWIRE_HOME === undefined || env.HOOKWIRE_HOME === '' ? homedir() : env.HOOKWIRE_HOME;
  const baseDir = options.baseDir ?? process.cwd();
  const projectDir = resolve(options.projectDir);

  interface Request {
    readonly directory: string;
    readonly origin: PluginDirectory['origin'];
    readonly file: string;
    readonly path: string;
    readonly layer: SettingsLayer;
    /** For installed plugins: the key's name, and a missing directory only warns. */
    readonly key?: string;
  }
  const requests: Request[] = [
    ...(options.pluginDirs ?? []).map((directory): Request => ({
      directory: resolve(baseDir, expandHome(directory, home)),
      origin: 'flag',
      file: `--plugin-dir ${directory}`,
      path: '',
      layer: 'extra',
    })),
    ...(options.settings ?? []).map((setting): Request => ({
      directory: resolve(projectDir, expandHome(setting.directory, home)),
      origin: 'setting',
      file: setting.file,
      path: setting.path,
      layer: setting.layer,
    })),
  ];
  const enabled = [...(options.enabledPlugins ?? new Map<string, PluginEnablement>())].filter(
    ([, value]) => value.enabled,
  );
  if (enabled.length > 0) {
    const installed = await readInstalledPlugins(
      join(home, '.claude', 'plugins', 'installed_plugins.json'),
      projectDir,
    );
    if (installed.warning !== undefined) warnings.push(installed.warning);
    for (const [key, enablement] of enabled) {
      const directory = installed.paths.get(key);
      if (directory === undefined) {
        warnings.push(
          `${enablement.file}: enabledPlugins[${JSON.stringify(key)}] is on, but no such plugin is installed (${installed.file}): install it with Claude Code, or remove the key`,
        );
        continue;
      }
      requests.push({
        directory,
        origin: 'installed',
        file: enablement.file,
        path: formatJsonPath(['enabledPlugins', key]),
        layer: enablement.layer,
        key,
      });
    }
  }

  const read = await Promise.all(
    requests.map(async (request) => ({ request, read: await readPluginDirectory(request) })),
  );
  const plugins: DiscoveredPlugin[] = [];
  const byRoot = new Set<string>();
  const byName = new Map<string, DiscoveredPlugin>();
  for (const { request, read: result } of read) {
    if (!result.ok) {
      if (request.origin === 'installed')
        warnings.push(`${result.issue.file}: ${result.issue.message}: this plugin is not loaded`);
      else issues.push(result.issue);
      continue;
    }
    if (byRoot.has(result.root)) continue;
    byRoot.add(result.root);
    const name = result.name ?? request.key?.replace(/@[^@]*$/, '') ?? basename(result.root);
    const earlier = byName.get(name);
    if (earlier !== undefined) {
      warnings.push(
        `plugin "${name}" at ${result.root} (${request.file}) is not loaded: the plugin of that name at ${earlier.plugin.root} (${earlier.file}) comes first`,
      );
      continue;
    }
    const found: DiscoveredPlugin = {
      plugin: {
        name,
        root: result.root,
        inline: request.origin === 'flag',
        manifest: result.manifest,
        origin: request.origin,
        flavour: result.flavour,
      },
      layer: request.layer,
      file: request.file,
    };
    byName.set(name, found);
    plugins.push(found);
  }
  if (issues.length > 0) throw new SettingsError(issues);
  return { plugins, warnings };
}

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

type DirectoryRead =
  | {
      readonly ok: true;
      readonly root: string;
      readonly name: string | undefined;
      readonly manifest: Readonly<Record<string, unknown>>;
      readonly flavour: PluginFlavour;
    }
  | { readonly ok: false; readonly issue: SettingsIssue };

async function readPluginDirectory(request: {
  readonly directory: string;
  readonly file: string;
  readonly path: string;
  readonly origin: PluginDirectory['origin'];
}): Promise<DirectoryRead> {
  const fixFor =
    request.origin === 'flag'
      ? 'give --plugin-dir the directory that holds .claude-plugin/plugin.json'
      : request.origin === 'setting'
        ? 'point the entry at the plugin directory (the one holding .claude-plugin/plugin.json; relative paths resolve against the project directory), or remove it'
        : 'reinstall the plugin with Claude Code, or turn it off in enabledPlugins';
  let root: string;
  try {
    root = await realpath(request.directory);
    if (!(await stat(root)).isDirectory())
      return {
        ok: false,
        issue: {
          file: request.file,
          path: request.path,
          message: `the plugin directory ${request.directory} is not a directory`,
          fix: fixFor,
        },
      };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      issue: {
        file: request.file,
        path: request.path,
        message:
          code === 'ENOENT'
            ? `the plugin directory ${request.directory} does not exist`
            : `the plugin directory ${request.directory} cannot be read (${code ?? String(error)})`,
        fix: fixFor,
      },
    };
  }
  for (const flavour of FLAVOURS) {
    const file = join(root, PLUGIN_LAYOUTS[flavour].folder, 'plugin.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return {
        ok: false,
        issue: {
          file,
          path: '',
          message: `the plugin manifest cannot be read (${code ?? String(error)})`,
          fix: 'make it readable',
        },
      };
    }
    const checked = checkManifest(text, file, basename(root));
    if (!checked.ok) return { ok: false, issue: checked.issue };
    return { ok: true, root, name: checked.name, manifest: checked.manifest, flavour };
  }
  // No manifest: Claude Code finds the components in their default places and names the plugin
  // after its directory.
  return { ok: true, root, name: undefined, manifest: {}, flavour: 'claude' };
}

/** The characters a plugin name may have: it becomes part of tool names and config keys. */
const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Manifest fields holding component paths: each a `./`-relative path (or list) inside the plugin. */
const PATH_FIELDS = ['commands', 'agents', 'skills', 'outputStyles'] as const;
/** Manifest fields holding a path, a list of paths, or the configuration inline. */
const PATH_OR_OBJECT_FIELDS = ['hooks', 'mcpServers', 'lspServers'] as const;
const STRING_FIELDS = ['version', 'description', 'homepage', 'license'] as const;

function checkManifest(
  text: string,
  file: string,
  directoryName: string,
):
  | { ok: true; name: string; manifest: Readonly<Record<string, unknown>> }
  | { ok: false; issue: SettingsIssue } {
  const fail = (path: string, message: string, fix: string) => ({
    ok: false as const,
    issue: { file, path, message, fix },
  });
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    return {
      ok: false,
      issue: {
        file,
        path: '',
        message: `the plugin manifest is not valid JSON (${parsed.error.message})`,
        fix: 'fix the JSON (claude plugin validate checks it too)',
        line: parsed.error.line,
        column: parsed.error.column,
      },
    };
  const manifest = parsed.value;
  if (!isJsonObject(manifest))
    return fail(
      '',
      'the plugin manifest is not a JSON object',
      `write {"name": "${directoryName}"}`,
    );
  const name = manifest['name'];
  if (typeof name !== 'string' || !PLUGIN_NAME.test(name))
    return fail(
      'name',
      name === undefined
        ? 'the plugin manifest has no name'
        : `${JSON.stringify(name)} is not a plugin name (letters, digits, ".", "_" and "-", starting with a letter or digit)`,
      `set "name" to the plugin's kebab-case name, e.g. "${directoryName.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}"`,
    );
  for (const field of STRING_FIELDS)
    if (manifest[field] !== undefined && typeof manifest[field] !== 'string')
      return fail(
        field,
        `"${field}" is not a string`,
        `write "${field}" as a string, or remove it`,
      );
  const author = manifest['author'];
  if (author !== undefined && !isJsonObject(author) && typeof author !== 'string')
    return fail('author', '"author" is not an object', 'write "author": {"name": "…"}');
  const keywords = manifest['keywords'];
  if (
    keywords !== undefined &&
    (!Array.isArray(keywords) || keywords.some((word) => typeof word !== 'string'))
  )
    return fail('keywords', '"keywords" is not a list of strings', 'write ["word", …]');
  if (manifest['userConfig'] !== undefined && !isJsonObject(manifest['userConfig']))
    return fail(
      'userConfig',
      '"userConfig" is not an object',
      'write "userConfig": {"OPTION": {"type": …, "default": …}}',
    );
  for (const field of [...PATH_FIELDS, ...PATH_OR_OBJECT_FIELDS]) {
    const value = manifest[field];
    if (value === undefined) continue;
    if (isJsonObject(value) && (PATH_OR_OBJECT_FIELDS as readonly string[]).includes(field))
      continue;
    const paths = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (paths === undefined)
      return fail(
        field,
        `"${field}" is not a path or a list of paths`,
        `write "${field}": "./${field}/" (paths relative to the plugin directory)`,
      );
    for (const [index, path] of paths.entries()) {
      const at = typeof value === 'string' ? field : formatJsonPath([field, index]);
      if (typeof path !== 'string' || !insidePlugin(path))
        return fail(
          at,
          `${JSON.stringify(path)} is not a path inside the plugin`,
          'write a path relative to the plugin directory, starting with "./" and without ".."',
        );
    }
  }
  return { ok: true, name, manifest };
}

/** Whether a manifest path stays inside the plugin: relative, and never above it. */
function insidePlugin(path: string): boolean {
  if (path === '' || isAbsolute(path) || path.startsWith('~')) return false;
  const normal = normalize(path);
  return normal !== '..' && !normal.startsWith(`..${sep}`) && !normal.startsWith('../');
}

/**
 * Claude Code's record of installed plugins: version 2 (`plugins: {"name@market": [{scope,
 * installPath, projectPath?}, …]}`) or version 1 (`plugins: {"name@market": {installPath}}`).
 * Entries of scope `project`/`local` count only for their `projectPath`. A file that is missing
 * is no plugins; one that cannot be read is a warning (the user's installations are Claude Code's
 * file, not hookwire's).
 */
async function readInstalledPlugins(
  file: string,
  projectDir: string,
): Promise<{ file: string; paths: Map<string, string>; warning?: string }> {
  const paths = new Map<string, string>();
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, paths };
    return { file, paths, warning: `${file} cannot be read: no installed plugin is loaded` };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok || !isJsonObject(parsed.value) || !isJsonObject(parsed.value['plugins']))
    return {
      file,
      paths,
      warning: `${file} is not Claude Code's record of installed plugins ({"version": 2, "plugins": {…}}): no installed plugin is loaded`,
    };
  const project = await realpath(projectDir).catch(() => projectDir);
  for (const [key, value] of Object.entries(parsed.value['plugins'])) {
    const entries: unknown[] = Array.isArray(value) ? value : [value];
    // A project's own installation first, then the user's.
    const usable = entries.filter(
      (entry): entry is Record<string, unknown> =>
        isJsonObject(entry) && typeof entry['installPath'] === 'string',
    );
    const own = usable.find(
      (entry) =>
        (entry['scope'] === 'project' || entry['scope'] === 'local') &&
        typeof entry['projectPath'] === 'string' &&
        (resolve(entry['projectPath']) === project || resolve(entry['projectPath']) === projectDir),
    );
    const user = usable.find(
      (entry) =>
        entry['scope'] === undefined || entry['scope'] === 'user' || entry['scope'] === 'managed',
    );
    const chosen = own ?? user;
    if (chosen !== undefined) paths.set(key, resolve(chosen['installPath'] as string));
  }
  return { file, paths };
}
