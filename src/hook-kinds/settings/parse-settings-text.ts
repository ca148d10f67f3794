import {
  HOOK_EVENT_NAMES,
  MATCHER_TARGET,
  OBSERVE_ONLY_EVENTS,
  canonicalEventName,
  type RegisteredEventName,
} from '../../events/index.ts';
import { DEFAULT_TIMEOUT_MS, parseTimeout } from '../duration.ts';
import { hookKind, type HookConfig } from '../registry.ts';
import type { HookGroupConfig } from './hook-config.ts';
import { tryCompileMatcher } from './matcher.ts';
import { isTimeoutPath, schemaIssues, valueAt } from './schema-issues.ts';
import { SettingsError } from './settings-error.ts';
import { formatJsonPath, type SettingsIssue } from './settings-issue.ts';
import type { SettingsLayer } from './settings-layer.ts';
import type { PluginSetting } from '../plugins/plugin-directory.ts';
import { agentTypeSchema, settingsFileSchema } from './settings-schema.ts';
import {
  BUILTIN_TOOL_ARGUMENTS,
  hookwireToolName,
  type DialectName,
} from '../dialects/vocabulary.ts';
import { parsePermissionRule } from '../../hooks/permissions/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import { readPolicySettings, type FilePolicySettings } from './policy-settings.ts';
import { readMcpServers, type McpServerEntry } from './mcp-servers.ts';
import { parseJsonText, type JsonDuplicateKey } from '../../wire/json-text.ts';
import { MAX_ISSUES_PER_FILE, SETTINGS_LIMITS, settingsTooLargeIssue } from './settings-limits.ts';

/** One settings file, validated: its groups in document order. */
/** The Claude Code mods settings of one file, as written. */
export interface ModsSettingsFields {
  readonly pluginConfigs?: Readonly<
    Record<
      string,
      { readonly options?: Readonly<Record<string, unknown>>; readonly failClosed?: boolean }
    >
  >;
  readonly prependPlugins?: readonly string[];
  readonly appendPlugins?: readonly string[];
}

export interface ParsedSettingsFile {
  /** `pluginConfigs`, `prependPlugins`, `appendPlugins` as written. */
  readonly mods?: ModsSettingsFields;
  readonly file: string;
  readonly layer: SettingsLayer;
  /** `allowManagedHooksOnly` as written (only the managed layer may set it). */
  readonly allowManagedHooksOnly: boolean;
  /** `disableAllHooks`, `permissions` and `passEnvironment` (see `readPolicySettings`). */
  readonly policy: FilePolicySettings;
  /** `disableAllHooks` as written (never true in the project or local layers). */
  readonly disableAllHooks: boolean;
  /** `dialects` as written: the other tools' settings files to read (absent: every one). */
  readonly dialects?: readonly DialectName[];
  readonly groups: readonly HookGroupConfig[];
  /** The `agents` of the file, in document order. */
  readonly agents: readonly AgentTypeSetting[];
  /** `plugins` as written: plugin directories (`hook-kinds/plugins/`), in document order. */
  readonly plugins?: readonly PluginSetting[];
  /** `enabledPlugins` as written (hookwire's, or Claude Code's in its settings files). */
  readonly enabledPlugins?: Readonly<Record<string, boolean>>;
  /** The file's `mcpServers`, in document order (see `readMcpServers`). */
  readonly mcpServers: readonly McpServerEntry[];
  /** `maxContextTokens` as written (the compaction budget). */
  readonly maxContextTokens?: number;
  /** `recordPayloads` as written (keep hook payloads and unreviewed tool results on disk). */
  readonly recordPayloads?: boolean;
  /** `systemPrompt` as written (the main agent's system prompt). */
  readonly systemPrompt?: string;
  /** `maxStopContinuations` as written (Stop continuations per turn). */
  readonly maxStopContinuations?: number;
  /** `recovery` as written: per tool, what an interrupted durable call becomes. */
  readonly recovery?: Readonly<Record<string, 'rerun' | 'report'>>;
}

/** An agent type of a settings file's `agents`, and where it was written. */
export interface AgentTypeSetting {
  readonly name: string;
  readonly description: string;
  readonly prompt: string;
  readonly tools?: readonly string[];
  readonly model?: string;
  readonly file: string;
  readonly layer: SettingsLayer;
}

/** The `agents` of a validated settings file. */
function readAgentTypes(raw: unknown, origin: SettingsTextOrigin): AgentTypeSetting[] {
  if (!isJsonObject(raw) || !isJsonObject(raw.agents)) return [];
  return Object.entries(raw.agents).flatMap(([name, value]) => {
    const checked = agentTypeSchema.safeParse(value);
    if (!checked.success) return [];
    const { description, prompt, tools, model } = checked.data;
    return [
      {
        name,
        description,
        prompt,
        ...(tools === undefined ? {} : { tools }),
        ...(model === undefined ? {} : { model }),
        file: origin.file,
        layer: origin.layer,
      },
    ];
  });
}

/** Where a settings text came from. */
export interface SettingsTextOrigin {
  readonly file: string;
  readonly layer: SettingsLayer;
}

/** The outcome of reading one settings text: the file when it is valid, and every issue. */
export interface SettingsTextResult {
  readonly parsed?: ParsedSettingsFile;
  readonly issues: readonly SettingsIssue[];
}

export { defaultHookName } from '../default-hook-name.ts';

/**
 * Parses and validates one settings text, collecting every issue instead of stopping at the
 * first: invalid JSON (with line and column), shape errors from the schema, timeouts, matchers
 * that do not compile or can never apply, and `allowManagedHooksOnly` outside the managed layer.
 * Issues are in document order.
 */
export function readSettingsText(text: string, origin: SettingsTextOrigin): SettingsTextResult {
  const { file, layer } = origin;
  // Editors on Windows may save a byte-order mark; JSON.parse rejects it.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') {
    return {
      issues: [
        {
          file,
          path: '',
          message: 'the file is empty',
          fix: 'write {} (no hooks) or {"hooks": {...}}, or delete the file',
        },
      ],
    };
  }
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > SETTINGS_LIMITS.maxBytes) return { issues: [settingsTooLargeIssue(file, bytes)] };
  const parsedText = parseJsonText(body, { maxDepth: SETTINGS_LIMITS.maxDepth });
  if (!parsedText.ok) {
    const { error } = parsedText;
    return {
      issues: [
        {
          file,
          path: '',
          line: error.line,
          column: error.column,
          message:
            error.kind === 'depth'
              ? `nesting deeper than the limit of ${SETTINGS_LIMITS.maxDepth} levels at line ${error.line}, column ${error.column} (a valid settings file nests 6)`
              : `invalid JSON at line ${error.line}, column ${error.column}: ${error.message}`,
          fix:
            error.kind === 'depth'
              ? 'close the brackets that were left open, or remove the nested value: settings hold {"hooks": {EVENT: [{"hooks": [{...}]}]}}'
              : error.fix,
        },
      ],
    };
  }
  const raw = parsedText.value;
  const limitIssues = countLimitIssues(file, raw);
  if (limitIssues.length > 0) return { issues: limitIssues };

  const issues: SettingsIssue[] = parsedText.duplicates.map((duplicate) =>
    duplicateKeyIssue(file, duplicate),
  );
  const checked = settingsFileSchema.safeParse(raw);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      if (issues.length > MAX_ISSUES_PER_FILE) break; // enough to act on; the cap is said below
      if (isTimeoutPath(issue.path)) continue; // reported below, by parseTimeout
      if (issue.path[0] === 'mcpServers') continue; // reported below, by readMcpServers
      for (const found of schemaIssues(file, issue, raw)) issues.push(found);
    }
  }
  const groups = checkSemantics(raw, origin, issues);
  const policy = readPolicySettings(raw, origin, issues);
  const mcpServers = readMcpServers(raw, origin, issues);
  if (isJsonObject(raw) && raw.allowManagedHooksOnly !== undefined && layer !== 'managed') {
    issues.push({
      file,
      path: 'allowManagedHooksOnly',
      message: `allowManagedHooksOnly is a managed policy setting and has no effect in the ${layer} settings`,
      fix: 'remove it; set it in the managed policy file (HOOKWIRE_MANAGED_SETTINGS, default /etc/hookwire/managed-settings.json)',
    });
  }
  if (issues.length > MAX_ISSUES_PER_FILE) {
    const kept = sortByDocumentOrder(issues.slice(0, MAX_ISSUES_PER_FILE), raw);
    kept.push({
      file,
      path: '',
      message: `more than ${MAX_ISSUES_PER_FILE} issues in this file; only the first ${MAX_ISSUES_PER_FILE} found are reported`,
      fix: 'fix those and validate again',
    });
    return { issues: kept };
  }
  if (issues.length > 0) return { issues: sortByDocumentOrder(issues, raw) };
  const allowManagedHooksOnly = isJsonObject(raw) && raw.allowManagedHooksOnly === true;
  return {
    parsed: {
      file,
      layer,
      allowManagedHooksOnly,
      policy,
      disableAllHooks: policy.disableAllHooks,
      ...(isJsonObject(raw) && Array.isArray(raw.dialects)
        ? { dialects: raw.dialects as DialectName[] }
        : {}),
      groups,
      agents: readAgentTypes(raw, origin),
      mcpServers,
      ...(isJsonObject(raw) && Array.isArray(raw.plugins)
        ? {
            plugins: (raw.plugins as string[]).map((directory, index) => ({
              directory,
              file,
              path: formatJsonPath(['plugins', index]),
              layer,
            })),
          }
        : {}),
      ...(isJsonObject(raw) && isJsonObject(raw.enabledPlugins)
        ? { enabledPlugins: raw.enabledPlugins as Record<string, boolean> }
        : {}),
      ...(isJsonObject(raw) && typeof raw.maxContextTokens === 'number'
        ? { maxContextTokens: raw.maxContextTokens }
        : {}),
      ...(isJsonObject(raw) && typeof raw.recordPayloads === 'boolean'
        ? { recordPayloads: raw.recordPayloads }
        : {}),
      ...(isJsonObject(raw) && typeof raw.systemPrompt === 'string'
        ? { systemPrompt: raw.systemPrompt }
        : {}),
      ...(isJsonObject(raw) && typeof raw.maxStopContinuations === 'number'
        ? { maxStopContinuations: raw.maxStopContinuations }
        : {}),
      ...(isJsonObject(raw) &&
      (raw.pluginConfigs !== undefined ||
        raw.prependPlugins !== undefined ||
        raw.appendPlugins !== undefined)
        ? {
            mods: {
              ...(isJsonObject(raw.pluginConfigs)
                ? {
                    pluginConfigs: raw.pluginConfigs as NonNullable<
                      ModsSettingsFields['pluginConfigs']
                    >,
                  }
                : {}),
              ...(Array.isArray(raw.prependPlugins)
                ? { prependPlugins: raw.prependPlugins as string[] }
                : {}),
              ...(Array.isArray(raw.appendPlugins)
                ? { appendPlugins: raw.appendPlugins as string[] }
                : {}),
            },
          }
        : {}),
      ...(isJsonObject(raw) && isJsonObject(raw.recovery)
        ? { recovery: raw.recovery as Readonly<Record<string, 'rerun' | 'report'>> }
        : {}),
    },
    issues,
  };
}

/**
 * Checks the counts a file may hold (groups per event, hooks per group, entries per list) before anything walks
 * them, so a file of a million groups is one issue found in one pass, not a million issues.
 */
function countLimitIssues(file: string, raw: unknown): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  if (!isJsonObject(raw)) return issues;
  const lists: [readonly (string | number)[], unknown][] = [
    [['passEnvironment'], raw.passEnvironment],
  ];
  if (isJsonObject(raw.permissions))
    for (const list of ['allow', 'deny', 'ask', 'additionalDirectories'])
      lists.push([['permissions', list], raw.permissions[list]]);
  for (const [path, list] of lists)
    if (Array.isArray(list) && list.length > SETTINGS_LIMITS.maxListEntries)
      issues.push({
        file,
        path: formatJsonPath(path),
        message: `${list.length} entries, more than the limit of ${SETTINGS_LIMITS.maxListEntries} in one list`,
        fix: 'shorten the list: one rule with a pattern, such as "shell(git *)", covers many commands',
      });
  if (!isJsonObject(raw.hooks)) return issues;
  for (const [event, groups] of Object.entries(raw.hooks)) {
    if (!Array.isArray(groups)) continue;
    if (groups.length > SETTINGS_LIMITS.maxGroupsPerEvent) {
      issues.push({
        file,
        path: formatJsonPath(['hooks', event]),
        message: `${groups.length} hook groups, more than the limit of ${SETTINGS_LIMITS.maxGroupsPerEvent} groups per event`,
        fix: 'merge the groups: one group holds many hooks, and one matcher such as "Edit|Write" covers many tools',
      });
      continue;
    }
    groups.forEach((group: unknown, index) => {
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) return;
      if (group.hooks.length > SETTINGS_LIMITS.maxHooksPerGroup)
        issues.push({
          file,
          path: formatJsonPath(['hooks', event, index, 'hooks']),
          message: `${group.hooks.length} hooks in one group, more than the limit of ${SETTINGS_LIMITS.maxHooksPerGroup} hooks per group`,
          fix: 'split them into several groups, or combine the commands into fewer hooks',
        });
    });
  }
  return issues;
}

/** A key written twice: JSON.parse would keep the second silently, so the first would never apply. */
function duplicateKeyIssue(file: string, duplicate: JsonDuplicateKey): SettingsIssue {
  const at = formatJsonPath(duplicate.path);
  const { first, second } = duplicate;
  return {
    file,
    path: at,
    line: second.line,
    column: second.column,
    message: `duplicate key ${JSON.stringify(duplicate.key)}: ${at} (line ${first.line}, column ${first.column}) is written again as ${at} (line ${second.line}, column ${second.column}); JSON keeps only the last, so the first would be silently ignored`,
    fix: `write ${JSON.stringify(duplicate.key)} once${duplicate.path.length === 2 && duplicate.path[0] === 'hooks' ? ', with the groups of both in one list' : ', merging the two values'}`,
  };
}

/**
 * Walks the raw JSON tolerantly (so these checks run even where the shape is wrong elsewhere)
 * and checks what the schema cannot: timeouts, matchers. Returns the groups; they are only
 * used when no issue was found at all.
 */
function checkSemantics(
  raw: unknown,
  origin: SettingsTextOrigin,
  issues: SettingsIssue[],
): HookGroupConfig[] {
  const { file, layer } = origin;
  const groups: HookGroupConfig[] = [];
  // The backends subscribed so far (`HookKind.subscription`), by event: the first one's path.
  const subscribed = new Map<string, string>();
  if (!isJsonObject(raw) || !isJsonObject(raw.hooks)) return groups;
  for (const [registeredAs, entries] of Object.entries(raw.hooks)) {
    const event = canonicalEventName(registeredAs);
    if (event === undefined || !Array.isArray(entries)) continue;
    entries.forEach((entry: unknown, groupIndex) => {
      if (!isJsonObject(entry)) return;
      const groupPath = formatJsonPath(['hooks', registeredAs, groupIndex]);
      const matcherSource = typeof entry.matcher === 'string' ? entry.matcher : '';
      const matcherPath = `${groupPath}.matcher`;
      const target = MATCHER_TARGET[event];
      const trimmed = matcherSource.trim();
      if (target === undefined && trimmed !== '' && trimmed !== '*') {
        issues.push({
          file,
          path: matcherPath,
          message: `${registeredAs} takes no matcher (it has no value to match against), so matcher ${JSON.stringify(matcherSource)} could never apply`,
          fix: `remove "matcher" (events with a matcher: ${HOOK_EVENT_NAMES.filter((name) => MATCHER_TARGET[name] !== undefined).join(', ')})`,
        });
      }
      const compiled = tryCompileMatcher(matcherSource, { file, path: matcherPath });
      if (!compiled.ok) issues.push(compiled.issue);
      const hooks: HookConfig[] = [];
      const hookEntries: unknown[] = Array.isArray(entry.hooks) ? entry.hooks : [];
      hookEntries.forEach((hook: unknown, hookIndex) => {
        if (!isJsonObject(hook)) return;
        const hookPath = `${groupPath}.hooks[${hookIndex}]`;
        let timeoutMs = DEFAULT_TIMEOUT_MS;
        if ('timeout' in hook) {
          const timeout = parseTimeout(hook.timeout);
          if (timeout.ok) timeoutMs = timeout.milliseconds;
          else
            issues.push({
              file,
              path: `${hookPath}.timeout`,
              message: timeout.message,
              fix: timeout.fix,
            });
        }
        if (hook.failClosed === true && OBSERVE_ONLY_EVENTS.has(event))
          issues.push({
            file,
            path: `${hookPath}.failClosed`,
            message: `${registeredAs} only observes: there is no action for a failing hook to deny, so failClosed could never take effect`,
            fix: 'remove "failClosed" (guards belong on PreToolUse, PostToolUse, UserPromptSubmit, BeforeModel, AfterModel, BeforeToolSelection or Stop)',
          });
        const condition = typeof hook['if'] === 'string' ? hook['if'] : undefined;
        if (condition !== undefined) {
          const rule = parsePermissionRule(condition);
          if (!rule.ok)
            issues.push({ file, path: `${hookPath}.if`, message: rule.message, fix: rule.fix });
          else if (target !== 'tool_name')
            issues.push({
              file,
              path: `${hookPath}.if`,
              message: `"if" narrows tool calls, and ${registeredAs} is not a tool event`,
              fix: 'remove "if", or move the hook to PreToolUse, PermissionRequest, PostToolUse or PostToolUseFailure',
            });
          else if (typeof entry.dialect !== 'string') {
            const foreign = foreignToolIn(rule.rule.tool);
            if (foreign !== undefined)
              issues.push({
                file,
                path: `${hookPath}.if`,
                message: `"if" names the tool "${rule.rule.tool}", which hookwire does not have ("${rule.rule.tool}" is ${foreign.tool}'s name for hookwire's "${foreign.hookwireName}"), so this hook would never run`,
                fix: `write ${JSON.stringify(rule.rule.specifier === undefined ? foreign.hookwireName : `${foreign.hookwireName}(${rule.rule.specifier})`)}`,
              });
          }
        }
        // The entry's kind (an unknown `type` is a schema issue already) builds its config.
        const kind = hookKind(hook.type);
        if (kind === undefined) return;
        const kindIssues = kind.check?.(hook, registeredAs) ?? [];
        for (const issue of kindIssues)
          issues.push({
            file,
            path: `${hookPath}${issue.path}`,
            message: issue.message,
            fix: issue.fix,
          });
        if (kindIssues.length > 0) return;
        const parsed = kind.parse(hook, {
          name: typeof hook.name === 'string' ? hook.name : undefined,
          ...(typeof hook.description === 'string' ? { description: hook.description } : {}),
          timeoutMs,
          failClosed: hook.failClosed === true,
          layer,
          file,
          path: hookPath,
        }) as HookConfig;
        const backend = kind.subscription?.(parsed);
        if (backend !== undefined) {
          const key = `${event}\0${kind.type}\0${backend}`;
          const first = subscribed.get(key);
          if (first !== undefined)
            issues.push({
              file,
              path: hookPath,
              message: `the same ${kind.type} backend is already subscribed to ${registeredAs} at ${first}; a backend is one subscription per event`,
              fix: 'remove one of the two entries',
            });
          else subscribed.set(key, hookPath);
        }
        // `if` is only in the command kind's schema: other kinds never carry it.
        hooks.push(
          condition === undefined || parsed.type !== 'command'
            ? parsed
            : { ...parsed, if: condition },
        );
      });
      if (!compiled.ok) return;
      groups.push({
        event,
        registeredAs: registeredAs as RegisteredEventName,
        matcher: compiled.matcher,
        matcherSource,
        sequential: entry.sequential === true,
        hooks,
        ...(typeof entry.dialect === 'string' ? { dialect: entry.dialect as DialectName } : {}),
        ...(typeof entry.dialect === 'string' && typeof entry.dialectEvent === 'string'
          ? { dialectEvent: entry.dialectEvent }
          : {}),
        layer,
        file,
        path: groupPath,
      });
    });
  }
  return groups;
}

const DIALECT_TOOLS: readonly { readonly dialect: DialectName; readonly tool: string }[] = [
  { dialect: 'claude', tool: 'Claude Code' },
  { dialect: 'gemini', tool: 'Gemini CLI' },
];

/**
 * The hookwire built-in a tool name of another tool's vocabulary means (`Bash` → `shell`), when
 * `name` is such a name and not hookwire's own: in hookwire's own files it matches nothing.
 */
function foreignToolIn(
  name: string,
): { readonly tool: string; readonly hookwireName: string } | undefined {
  if (name in BUILTIN_TOOL_ARGUMENTS) return undefined;
  for (const { dialect, tool } of DIALECT_TOOLS) {
    const hookwireName = hookwireToolName(dialect, name);
    if (hookwireName !== name) return { tool, hookwireName };
  }
  return undefined;
}

/** Parses a JSON path produced by `formatJsonPath` back into segments. */
function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  const pattern = /([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) segments.push(JSON.parse(match[3]) as string);
  }
  return segments;
}

/**
 * Orders issues as their locations appear in the file: each path becomes the position of each
 * of its keys among its siblings; a key that is not there (a missing field) sorts after them.
 */
function sortByDocumentOrder(issues: readonly SettingsIssue[], raw: unknown): SettingsIssue[] {
  // Each object's key positions, computed once: an object may hold thousands of keys.
  const positionsOf = new Map<object, Map<string, number>>();
  const keyPosition = (parent: Record<string, unknown>, key: string): number => {
    let positions = positionsOf.get(parent);
    if (positions === undefined) {
      positions = new Map(Object.keys(parent).map((name, position) => [name, position]));
      positionsOf.set(parent, positions);
    }
    return positions.get(key) ?? -1;
  };
  const rank = (issue: SettingsIssue): number[] => {
    const segments = pathSegments(issue.path);
    const positions: number[] = [];
    segments.forEach((segment, index) => {
      const parent = valueAt(raw, segments.slice(0, index));
      if (typeof segment === 'number') positions.push(segment);
      else if (isJsonObject(parent)) {
        const position = keyPosition(parent, segment);
        positions.push(position === -1 ? Number.MAX_SAFE_INTEGER : position);
      } else positions.push(Number.MAX_SAFE_INTEGER);
    });
    return positions;
  };
  const ranked = issues.map((issue, index) => ({ issue, index, rank: rank(issue) }));
  ranked.sort((left, right) => {
    const length = Math.min(left.rank.length, right.rank.length);
    for (let position = 0; position < length; position++) {
      const difference = (left.rank[position] ?? 0) - (right.rank[position] ?? 0);
      if (difference !== 0) return difference;
    }
    return left.rank.length - right.rank.length || left.index - right.index;
  });
  return ranked.map((entry) => entry.issue);
}

/**
 * Parses one settings file's text (see `readSettingsText`) and returns its groups, or throws a
 * `SettingsError` with every issue found in it.
 */
export function parseSettingsText(text: string, origin: SettingsTextOrigin): ParsedSettingsFile {
  const result = readSettingsText(text, origin);
  if (result.parsed === undefined) throw new SettingsError(result.issues);
  return result.parsed;
}
