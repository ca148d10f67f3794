/**
 * `hookwire hooks import`: another tool's hook groups (as the dialect reader loaded them) written
 * as hookwire's own settings. Events become hookwire's names, tool names in matchers and `if`
 * become hookwire's, timeouts get their unit (`"600s"`, `"5000ms"`), `onFailure: "block"`
 * becomes `failClosed`, and each group keeps `"dialect"` so its hooks still get payloads and are
 * read in the vocabulary they were written for: running the result has the same effects as
 * loading the original file as a dialect. What cannot be carried is said, one note each.
 */
import { readFile } from 'node:fs/promises';
import { MATCHER_TARGET } from '../../events/index.ts';
import { parsePermissionRule } from '../../hooks/permissions/index.ts';
import type { CommandHookConfig, HookGroupConfig } from '../settings/hook-config.ts';
import { defaultHookName } from '../default-hook-name.ts';
import type { SettingsEnvironment } from '../settings/settings-layer.ts';
import { DIALECTS } from './dialect.ts';
import { readForeignSettings } from './foreign-settings.ts';
import { foreignSources } from './foreign-sources.ts';
import { BUILTIN_TOOL_ARGUMENTS, hookwireToolName, type DialectName } from './vocabulary.ts';

/** The imported settings and what could not be carried. */
export interface ImportedSettings {
  readonly settings: { readonly hooks: Readonly<Record<string, unknown[]>> };
  readonly notes: readonly string[];
}

function timeoutText(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000}s` : `${milliseconds}ms`;
}

/** A tool name of the dialect as hookwire's, or `undefined` when hookwire has no such tool. */
function importedToolName(dialect: DialectName, name: string): string | undefined {
  const hookwire = hookwireToolName(dialect, name);
  if (hookwire in BUILTIN_TOOL_ARGUMENTS) return hookwire;
  // MCP tools and tools an embedding adds keep their names.
  return name.startsWith('mcp__') || name.startsWith('mcp_') ? name : undefined;
}

/** Converts the groups of a dialect's files (in merge order) to one hookwire settings object. */
export function importGroups(groups: readonly HookGroupConfig[]): ImportedSettings {
  const hooks: Record<string, unknown[]> = {};
  const notes: string[] = [];
  for (const group of groups) {
    const dialect = group.dialect;
    if (dialect === undefined) continue;
    const where = `${group.file} at ${group.path}`;
    const toolEvent = MATCHER_TARGET[group.event] === 'tool_name';
    let matcher: string | undefined;
    if (group.foreignNames === false) {
      // The event's own kind of tool call (Cursor's beforeShellExecution), in hookwire's names.
      if (group.matcherSource !== '') matcher = group.matcherSource;
    } else if (group.matcher.kind === 'names' && toolEvent) {
      const names = group.matcherSource.split('|').map((name) => name.trim());
      const kept: string[] = [];
      for (const name of names) {
        const imported = importedToolName(dialect, name);
        if (imported === undefined)
          notes.push(
            `${where}: the tool ${name} has no counterpart in hookwire: left out of the matcher`,
          );
        else if (!kept.includes(imported)) kept.push(imported);
      }
      if (kept.length === 0) {
        notes.push(
          `${where}: no tool of matcher "${group.matcherSource}" exists in hookwire: the group is not imported`,
        );
        continue;
      }
      matcher = kept.join('|');
    } else if (group.matcher.kind === 'pattern') {
      // Unanchored there (anchored in Copilot CLI, as here); tool names inside an expression are
      // not rewritten.
      matcher =
        DIALECTS[dialect].anchoredMatchers === true
          ? group.matcherSource.trim()
          : `.*(?:${group.matcherSource.trim()}).*`;
      if (toolEvent)
        notes.push(
          `${where}: the regular expression "${group.matcherSource}" is carried as "${matcher}" (it matches hookwire's tool names, which it does not rewrite)`,
        );
    } else if (group.matcher.kind === 'names') matcher = group.matcherSource;
    // A dialect file's hooks are command hooks (the reader skips every other type).
    const entries = (group.hooks as readonly CommandHookConfig[]).map((hook, index) => {
      const path = `${where}.hooks[${index}]`;
      const extra = hook as {
        readonly once?: true;
        readonly async?: true;
        readonly env?: unknown;
        readonly statusMessage?: string;
      };
      if (hook.argv !== undefined)
        notes.push(
          `${path}: "exec" and "args" are carried as one command line, each word quoted for sh (hookwire's own settings start commands under sh)`,
        );
      for (const field of ['once', 'async', 'env', 'statusMessage'] as const)
        if (extra[field] !== undefined)
          notes.push(
            `${path}: "${field}" is not carried (hookwire's own settings have no such field)`,
          );
      let condition: string | undefined;
      if (hook.if !== undefined) {
        const rule = parsePermissionRule(hook.if);
        if (rule.ok) {
          const tool = hookwireToolName(dialect, rule.rule.tool);
          condition = rule.rule.specifier === undefined ? tool : `${tool}(${rule.rule.specifier})`;
        }
      }
      return {
        type: 'command',
        command: hook.command,
        ...(hook.name === defaultHookName(hook.command) ? {} : { name: hook.name }),
        ...(hook.description === undefined ? {} : { description: hook.description }),
        timeout: timeoutText(hook.timeoutMs),
        ...(hook.failClosed ? { failClosed: true } : {}),
        ...(condition === undefined ? {} : { if: condition }),
        ...(hook.cwd === undefined ? {} : { cwd: hook.cwd }),
      };
    });
    // The name it was registered under (hookwire reads Gemini CLI's aliases too), so its hooks
    // keep getting the same hook_event_name.
    // A dialect with payloads of its own keeps its event name beside hookwire's.
    const key = group.dialectEvent === undefined ? group.registeredAs : group.event;
    (hooks[key] ??= []).push({
      ...(matcher === undefined ? {} : { matcher }),
      ...(group.sequential ? { sequential: true } : {}),
      dialect,
      ...(group.dialectEvent === undefined ? {} : { dialectEvent: group.dialectEvent }),
      hooks: entries,
    });
  }
  return { settings: { hooks }, notes };
}

/** The files of one dialect that exist, read as the dialect reader reads them. */
export async function readDialectFiles(
  dialect: DialectName,
  options: { readonly projectDir: string; readonly env?: SettingsEnvironment },
): Promise<{ groups: HookGroupConfig[]; warnings: string[]; files: string[] }> {
  const groups: HookGroupConfig[] = [];
  const warnings: string[] = [];
  const files: string[] = [];
  const seen = new Set<string>();
  for (const source of foreignSources(options)) {
    if (source.dialect !== dialect || seen.has(source.file)) continue;
    seen.add(source.file);
    let text: string;
    try {
      text = await readFile(source.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      warnings.push(`${source.file} cannot be read: ${(error as Error).message}`);
      continue;
    }
    files.push(source.file);
    const result = readForeignSettings(text, source);
    for (const group of result.parsed.groups) groups.push(group);
    for (const warning of result.warnings) warnings.push(warning);
    const servers = result.parsed.mcpServers.map((server) => server.name);
    if (servers.length > 0)
      warnings.push(
        `${source.file}: its mcpServers (${servers.join(', ')}) are not imported: hookwire reads them from this file while the ${dialect} dialect is on (copy them into "mcpServers" of hookwire's settings to keep them without it)`,
      );
  }
  return { groups, warnings, files };
}
