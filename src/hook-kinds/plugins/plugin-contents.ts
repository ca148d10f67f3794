/**
 * What a plugin brings, read as Claude Code reads it, in the plugin's layout (`PLUGIN_LAYOUTS`:
 * Claude Code's, Codex's or Cursor's, which differ only in the rows of that table):
 *
 * - **Hooks**: `hooks/hooks.json` (and the manifest's `hooks`: a path, a list of paths, or the
 *   hooks inline), in the layout's dialect (Claude Code's for `.claude-plugin`, Codex's for
 *   `.codex-plugin`, Cursor's for `.cursor-plugin`), each hook run with the layout's root
 *   variables (`CLAUDE_PLUGIN_ROOT`, and `CURSOR_PLUGIN_ROOT` or `CODEX_PLUGIN_ROOT`) in its
 *   environment and each `${VARIABLE}` of them replaced by the plugin's directory in its command.
 *   The environment is part of the hook's identity, so a plugin's copy of a handler stays
 *   separate from the same handler in settings files (which runs once however many files hold
 *   it), as in Claude Code.
 * - **MCP servers**: the layout's file (`.mcp.json`; Cursor's `mcp.json`) and the manifest's
 *   `mcpServers`, each named `plugin_<plugin>_<server>` so its tools are
 *   `mcp__plugin_<plugin>_<server>__<tool>`, with the root variables replaced in its command,
 *   arguments, environment and working directory, and set in its environment.
 *
 * A plugin's files are another tool's files: what hookwire cannot honour in them is skipped, that
 * part only, with a warning. The plugin was trusted as a whole before its contents are read (see
 * `load-settings.ts`), so its files load in the `user` layer.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isJsonObject } from '../../wire/json-object.ts';
import type { HookConfig } from '../registry.ts';
import type { HookGroupConfig } from '../settings/hook-config.ts';
import type { McpServerConfig, McpServerEntry } from '../settings/mcp-servers.ts';
import type { ParsedSettingsFile } from '../settings/parse-settings-text.ts';
import { NO_FILE_POLICY } from '../settings/policy-settings.ts';
import type { DialectName } from '../dialects/vocabulary.ts';
import { PLUGIN_LAYOUTS, type PluginDirectory } from './plugin-directory.ts';

/** The variable (and `${…}` placeholder) that names a plugin's directory in Claude Code. */
export const PLUGIN_ROOT_VARIABLE = 'CLAUDE_PLUGIN_ROOT';

/** A plugin's MCP server name: `plugin_<plugin>_<server>` (characters a tool name may not have become `_`). */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin.replace(/[^A-Za-z0-9_-]/g, '_')}_${server}`;
}

/** `text` with every `${VARIABLE}` of `variables` (default Claude Code's) replaced by `root`. */
export function expandPluginRoot(
  text: string,
  root: string,
  variables: readonly string[] = [PLUGIN_ROOT_VARIABLE],
): string {
  let expanded = text;
  for (const variable of variables) expanded = expanded.replaceAll(`\${${variable}}`, root);
  return expanded;
}

/** The environment naming a plugin's directory: each of its layout's root variables. */
function rootEnvironment(plugin: PluginDirectory): Record<string, string> {
  return Object.fromEntries(
    PLUGIN_LAYOUTS[plugin.flavour].rootVariables.map((variable) => [variable, plugin.root]),
  );
}

/** What a plugin's files add to the settings. */
export interface PluginContents {
  readonly parsed: readonly ParsedSettingsFile[];
  /** The files read, with their dialect, for `hooks validate` and `hooks list`. */
  readonly files: readonly { readonly file: string; readonly dialect?: DialectName }[];
  readonly warnings: readonly string[];
}

/** Manifest paths (a string or a list), resolved against the plugin's root. */
function manifestPaths(value: unknown, root: string): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return list
    .filter((path): path is string => typeof path === 'string')
    .map((path) => join(root, path));
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Reads the hooks and MCP servers of each plugin (see the module comment). */
export async function readPluginContents(
  plugins: readonly PluginDirectory[],
): Promise<PluginContents> {
  const { readForeignSettings } = await import('../dialects/foreign-settings.ts');
  const { readMcpJsonText, readMcpServers } = await import('../settings/mcp-servers.ts');
  const parsed: ParsedSettingsFile[] = [];
  const files: { file: string; dialect?: DialectName }[] = [];
  const warnings: string[] = [];
  for (const plugin of plugins) {
    const { root, manifest } = plugin;
    const layout = PLUGIN_LAYOUTS[plugin.flavour];
    const manifestFile = join(root, layout.folder, 'plugin.json');
    // Hooks: the default file, then the manifest's (each path once).
    const hookFiles = [
      ...new Set([join(root, 'hooks', 'hooks.json'), ...manifestPaths(manifest['hooks'], root)]),
    ];
    const hookTexts: { file: string; text: string }[] = [];
    for (const file of hookFiles) {
      const text = await readText(file);
      if (text !== undefined) hookTexts.push({ file, text });
    }
    if (isJsonObject(manifest['hooks']))
      hookTexts.push({ file: manifestFile, text: JSON.stringify({ hooks: manifest['hooks'] }) });
    for (const { file, text } of hookTexts) {
      const result = readForeignSettings(text, { file, layer: 'user', dialect: layout.dialect });
      for (const warning of result.warnings) warnings.push(warning);
      parsed.push({
        ...result.parsed,
        mcpServers: [],
        groups: result.parsed.groups.map((group) => withPluginRoot(group, plugin)),
      });
      files.push({ file, dialect: layout.dialect });
    }

    // MCP servers: the layout's files (`.mcp.json`), then the manifest's paths or inline servers.
    const servers: McpServerEntry[] = [];
    const serverFiles = [
      ...new Set([
        ...layout.mcpFiles.map((file) => join(root, file)),
        ...manifestPaths(manifest['mcpServers'], root),
      ]),
    ];
    for (const file of serverFiles) {
      const text = await readText(file);
      if (text === undefined) continue;
      const read = readMcpJsonText(text, file);
      for (const issue of read.issues)
        warnings.push(
          `${issue.file}${issue.path === '' ? '' : ` at ${issue.path}`}: ${issue.message}: skipped (it is plugin "${plugin.name}"'s file; ${issue.fix})`,
        );
      servers.push(...read.servers);
      files.push({ file });
    }
    if (isJsonObject(manifest['mcpServers'])) {
      const file = manifestFile;
      const issues: Parameters<typeof readMcpServers>[2] = [];
      servers.push(
        ...readMcpServers({ mcpServers: manifest['mcpServers'] }, { file, layer: 'user' }, issues),
      );
      for (const issue of issues)
        warnings.push(`${issue.file} at ${issue.path}: ${issue.message}: skipped (${issue.fix})`);
    }
    if (servers.length > 0)
      parsed.push({
        file: join(root, '.mcp.json'),
        layer: 'user',
        allowManagedHooksOnly: false,
        policy: NO_FILE_POLICY,
        disableAllHooks: false,
        groups: [],
        agents: [],
        mcpServers: servers.map((server) => ({
          ...server,
          name: pluginServerName(plugin.name, server.name),
          config: serverWithRoot(server.config, plugin),
        })),
      });
  }
  return { parsed, files, warnings };
}

function withPluginRoot(group: HookGroupConfig, plugin: PluginDirectory): HookGroupConfig {
  const variables = PLUGIN_LAYOUTS[plugin.flavour].rootVariables;
  return {
    ...group,
    hooks: group.hooks.map((hook): HookConfig => {
      if (hook.type !== 'command') return hook;
      return {
        ...hook,
        command: expandPluginRoot(hook.command, plugin.root, variables),
        ...(hook.argv === undefined
          ? {}
          : { argv: hook.argv.map((arg) => expandPluginRoot(arg, plugin.root, variables)) }),
        env: { ...hook.env, ...rootEnvironment(plugin) },
      };
    }),
  };
}

function serverWithRoot(config: McpServerConfig, plugin: PluginDirectory): McpServerConfig {
  const { root } = plugin;
  const variables = PLUGIN_LAYOUTS[plugin.flavour].rootVariables;
  const expand = (text: string) => expandPluginRoot(text, root, variables);
  if (config.type === 'http')
    return {
      ...config,
      url: expand(config.url),
      headers: Object.fromEntries(
        Object.entries(config.headers).map(([key, value]) => [key, expand(value)]),
      ),
    };
  return {
    ...config,
    command: expand(config.command),
    args: config.args.map(expand),
    env: {
      ...Object.fromEntries(Object.entries(config.env).map(([key, value]) => [key, expand(value)])),
      ...rootEnvironment(plugin),
    },
    cwd: config.cwd === undefined ? root : expand(config.cwd),
  };
}
