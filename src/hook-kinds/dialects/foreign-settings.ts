/**
 * Reads another tool's settings file leniently: the hooks it declares become hookwire groups
 * tagged with the file's dialect, and whatever hookwire cannot honour is skipped **for that hook
 * only**, with a warning naming the file, the JSON path and what is unsupported; the rest of the
 * file still loads. hookwire's own files stay strict (`parse-settings-text.ts`).
 *
 * - An event hookwire does not have (`TeammateIdle`, `TaskCompleted`, …), a hook type other than
 *   `command` (`prompt`, `agent`, `http`), a missing command, a matcher that does not compile, an
 *   `if` that is not a permission rule: that hook (or group) is skipped.
 * - A field hookwire does not implement on a hook or a group: the field is ignored (the hook
 *   runs), with a warning; ignoring it never loosens a guard.
 * - Top-level keys other than `hooks` (`permissions`, `model`, `env`, …) are the tool's own
 *   settings and are ignored without a word. Gemini CLI's `hooksConfig` (`enabled`, `disabled`)
 *   is honoured.
 */
import { dirname } from 'node:path';
import { isRelayCommand } from './relay-entries.ts';
import { parse as parseToml } from 'smol-toml';
import {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  MATCHER_TARGET,
  OBSERVE_ONLY_EVENTS,
  type HookEventName,
  type RegisteredEventName,
} from '../../events/index.ts';
import { parsePermissionRule } from '../../hooks/permissions/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import { parseJsonText } from '../../wire/json-text.ts';
import { MAX_TIMEOUT_MS } from '../duration.ts';
import type { CommandHookConfig, HookGroupConfig } from '../settings/hook-config.ts';
import type { ParsedSettingsFile } from '../settings/parse-settings-text.ts';
import { defaultHookName } from '../settings/parse-settings-text.ts';
import { formatJsonPath } from '../settings/settings-issue.ts';
import { tryCompileMatcher } from '../settings/matcher.ts';
import { readMcpServers } from '../settings/mcp-servers.ts';
import type { SettingsLayer } from '../settings/settings-layer.ts';
import { DIALECTS, dialectEvent, type DialectName } from './dialect.ts';
import { compileForeignMatcher } from './foreign-matcher.ts';
import { NO_FILE_POLICY } from '../settings/policy-settings.ts';

/** Where a foreign file came from. */
export interface ForeignOrigin {
  readonly file: string;
  readonly layer: SettingsLayer;
  readonly dialect: DialectName;
}

/** What reading one foreign file gives: its groups (as a settings file) and the warnings. */
export interface ForeignSettingsResult {
  readonly parsed: ParsedSettingsFile;
  /** One line each: `FILE at JSON.PATH: what is unsupported, and what hookwire did`. */
  readonly warnings: readonly string[];
}

function emptyResult(origin: ForeignOrigin, warnings: string[]): ForeignSettingsResult {
  return {
    parsed: {
      file: origin.file,
      layer: origin.layer,
      allowManagedHooksOnly: false,
      disableAllHooks: false,
      policy: NO_FILE_POLICY,
      agents: [],
      mcpServers: [],
      groups: [],
    },
    warnings,
  };
}

/** The raw document of a foreign file: JSON, or TOML for Kimi Code's `config.toml`. */
function readDocument(
  text: string,
  origin: ForeignOrigin,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (origin.file.endsWith('.toml')) {
    try {
      return { ok: true, value: parseToml(text) };
    } catch (error) {
      return {
        ok: false,
        message: `is not valid TOML (${(error as Error).message.split('\n')[0] ?? ''})`,
      };
    }
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    return {
      ok: false,
      message: `is not valid JSON (line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.message})`,
    };
  return { ok: true, value: parsed.value };
}

/** Reads one foreign file's text (see the module comment). Never throws. */
export function readForeignSettings(text: string, origin: ForeignOrigin): ForeignSettingsResult {
  const warnings: string[] = [];
  const dialect = DIALECTS[origin.dialect];
  const title = dialect.title;
  const document = readDocument(text, origin);
  if (!document.ok) {
    warnings.push(
      `${origin.file} ${document.message}: none of its hooks is loaded (it is ${title}'s file; fix it there)`,
    );
    return emptyResult(origin, warnings);
  }
  const raw = document.value;
  if (!isJsonObject(raw)) {
    warnings.push(`${origin.file} is not an object: none of its hooks is loaded`);
    return emptyResult(origin, warnings);
  }
  // A dialect's MCP servers (Gemini CLI's) load whatever its hooks settings say.
  const mcpServers = dialect.mcpServers?.(raw, origin, warnings, readMcpServers) ?? [];
  // Claude Code's `enabledPlugins` turns on the plugins it installed (`hook-kinds/plugins/`).
  const enabledPlugins =
    dialect.enablesPlugins === true ? readEnabledPlugins(raw, origin, warnings) : undefined;
  const result = (groups: HookGroupConfig[]): ForeignSettingsResult => ({
    parsed: {
      ...emptyResult(origin, []).parsed,
      groups,
      mcpServers,
      ...(enabledPlugins === undefined ? {} : { enabledPlugins }),
    },
    warnings,
  });
  if (raw['disableAllHooks'] === true) return result([]);
  const reader = new Reader(origin, warnings);
  if (dialect.layout === 'entries') reader.readKimi(raw['hooks']);
  else if (dialect.layout === 'flat') reader.readFlat(raw['hooks']);
  else {
    const config = dialect.hooksConfig ? raw['hooksConfig'] : undefined;
    if (isJsonObject(config) && config['enabled'] === false) return result([]);
    if (isJsonObject(config) && Array.isArray(config['disabled']))
      reader.disabled = new Set(config['disabled'].filter((name) => typeof name === 'string'));
    reader.readHooks(dialect.eventsAtRoot?.(origin.file) === true ? raw : raw['hooks']);
  }
  return result(reader.groups);
}

/** A word as `sh` reads it back unchanged (for showing an `exec` + `args` hook). */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Claude Code's `enabledPlugins`: `{"NAME@MARKETPLACE": true|false}`; other values are skipped. */
function readEnabledPlugins(
  raw: Readonly<Record<string, unknown>>,
  origin: ForeignOrigin,
  warnings: string[],
): Record<string, boolean> | undefined {
  const value = raw['enabledPlugins'];
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) {
    warnings.push(`${origin.file} at enabledPlugins: is not an object: ignored`);
    return undefined;
  }
  const enabled: Record<string, boolean> = {};
  for (const [key, on] of Object.entries(value)) {
    if (typeof on === 'boolean') enabled[key] = on;
    else
      warnings.push(
        `${origin.file} at ${formatJsonPath(['enabledPlugins', key])}: is not true or false: ignored`,
      );
  }
  return enabled;
}

const REGISTERED_NAMES: ReadonlySet<string> = new Set([
  ...HOOK_EVENT_NAMES,
  ...Object.keys(HOOK_EVENT_ALIASES),
]);

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

class Reader {
  readonly groups: HookGroupConfig[] = [];
  disabled: ReadonlySet<string> = new Set();

  private readonly origin: ForeignOrigin;
  private readonly warnings: string[];

  constructor(origin: ForeignOrigin, warnings: string[]) {
    this.origin = origin;
    this.warnings = warnings;
  }

  private warn(path: string, what: string): void {
    this.warnings.push(`${this.origin.file} at ${path}: ${what}`);
  }

  readHooks(hooks: unknown): void {
    if (hooks === undefined) return;
    if (!isJsonObject(hooks)) {
      this.warn('hooks', 'is not an object of events: no hook is loaded from this file');
      return;
    }
    for (const [name, entries] of Object.entries(hooks)) {
      const path = formatJsonPath(['hooks', name]);
      const event = dialectEvent(this.origin.dialect, name);
      if (event === undefined) {
        this.warn(
          path,
          `${DIALECTS[this.origin.dialect].title}'s event ${JSON.stringify(name)} is not supported by hookwire (its events: ${Object.keys(DIALECTS[this.origin.dialect].events).join(', ')}): these hooks are skipped`,
        );
        continue;
      }
      if (!Array.isArray(entries)) {
        this.warn(path, 'is not an array of hook groups: skipped');
        continue;
      }
      entries.forEach((entry: unknown, index) => {
        this.readGroup(event, name, entry, formatJsonPath(['hooks', name, index]));
      });
    }
  }

  private readGroup(event: HookEventName, name: string, entry: unknown, path: string): void {
    if (!isJsonObject(entry)) {
      this.warn(path, 'is not a hook group object: skipped');
      return;
    }
    for (const key of Object.keys(entry))
      if (!DIALECTS[this.origin.dialect].groupFields.includes(key))
        this.warn(
          `${path}.${key}`,
          `hookwire does not implement the group field ${JSON.stringify(key)}: ignored`,
        );
    const matcher = this.matcher(event, entry['matcher'], `${path}.matcher`);
    if (matcher === undefined) return;
    const list = entry['hooks'];
    if (!Array.isArray(list)) {
      this.warn(`${path}.hooks`, 'is missing or not an array: this group is skipped');
      return;
    }
    const hooks: CommandHookConfig[] = [];
    list.forEach((hook: unknown, index) => {
      const config = this.readHook(event, name, hook, `${path}.hooks[${index}]`);
      if (config !== undefined) hooks.push(config);
    });
    this.push(event, name, matcher, hooks, entry['sequential'] === true, path);
  }

  private push(
    event: HookEventName,
    name: string,
    matcher: {
      readonly compiled: HookGroupConfig['matcher'];
      readonly source: string;
      readonly foreignNames?: boolean;
    },
    hooks: readonly CommandHookConfig[],
    sequential: boolean,
    path: string,
    dialect: DialectName = this.origin.dialect,
  ): void {
    if (hooks.length === 0) return;
    const envelope = DIALECTS[dialect].envelope !== undefined;
    // A profile's own event name (Augment's `PromptSubmit`) is registered as the event it stands
    // for (hookwire's wire knows its own names and aliases only) and kept as the dialect's event,
    // which its hooks get as `hook_event_name`. A dialect with an envelope of its own (Copilot,
    // Cursor, Windsurf) keeps its name: its answers are read by it.
    const registeredAs = REGISTERED_NAMES.has(name) || envelope ? name : event;
    this.groups.push({
      event,
      registeredAs: registeredAs as RegisteredEventName,
      matcher: matcher.compiled,
      matcherSource: matcher.source,
      sequential,
      hooks,
      dialect,
      foreignNames: matcher.foreignNames ?? true,
      ...(envelope || registeredAs !== name ? { dialectEvent: name } : {}),
      layer: this.origin.layer,
      file: this.origin.file,
      path,
    });
  }

  private matcher(
    event: HookEventName,
    value: unknown,
    path: string,
    dialect: DialectName = this.origin.dialect,
  ): { compiled: HookGroupConfig['matcher']; source: string } | undefined {
    const source = typeof value === 'string' ? value : '';
    if (value !== undefined && typeof value !== 'string') {
      this.warn(path, 'is not a string: this group is skipped');
      return undefined;
    }
    // A matcher on an event without a target is ignored, as those tools do.
    const target = MATCHER_TARGET[event];
    const effective = target === undefined ? '' : source;
    const compiled = compileForeignMatcher(
      dialect,
      effective,
      DIALECTS[dialect].anchoredMatchers === true,
    );
    if (!compiled.ok) {
      this.warn(path, `${compiled.message}: this group is skipped`);
      return undefined;
    }
    return { compiled: compiled.matcher, source: effective };
  }

  private readHook(
    event: HookEventName,
    eventName: string,
    hook: unknown,
    path: string,
  ): CommandHookConfig | undefined {
    const dialect = this.origin.dialect;
    const rules = DIALECTS[dialect];
    if (!isJsonObject(hook)) {
      this.warn(path, 'is not a hook object: skipped');
      return undefined;
    }
    const type = hook['type'] ?? 'command';
    if (type !== 'command') {
      this.warn(
        `${path}.type`,
        `hook type ${JSON.stringify(type)} is not supported by hookwire for ${rules.title} files (only "command"): this hook is skipped`,
      );
      return undefined;
    }
    const command = hook['command'];
    if (typeof command !== 'string' || command.trim() === '') {
      this.warn(`${path}.command`, 'is missing or empty: this hook is skipped');
      return undefined;
    }
    // `hookwire relay install`'s entry: it runs hookwire's own hooks, which already run here.
    if (isRelayCommand(command)) return undefined;
    const name =
      typeof hook['name'] === 'string' && hook['name'].trim() !== '' ? hook['name'] : undefined;
    if (this.disabled.has(name ?? '') || this.disabled.has(command)) return undefined;
    for (const key of Object.keys(hook))
      if (!DIALECTS[dialect].hookFields.includes(key))
        this.warn(
          `${path}.${key}`,
          `hookwire does not implement the hook field ${JSON.stringify(key)}: ignored (the hook runs without it)`,
        );

    let timeoutMs = rules.defaultTimeoutMs;
    if (hook['timeout'] !== undefined) {
      if (!isPositiveNumber(hook['timeout']))
        this.warn(
          `${path}.timeout`,
          `is not a positive number of ${rules.timeoutUnit}: the default ${rules.defaultTimeoutMs / 1000}s applies`,
        );
      else
        timeoutMs = Math.min(
          MAX_TIMEOUT_MS,
          Math.max(
            1,
            Math.round(rules.timeoutUnit === 'seconds' ? hook['timeout'] * 1000 : hook['timeout']),
          ),
        );
    }
    let failClosed = false;
    const onFailure = hook['onFailure'];
    if (onFailure !== undefined) {
      if (onFailure === 'block') failClosed = true;
      else if (onFailure !== 'allow' && onFailure !== 'continue' && onFailure !== 'ignore')
        this.warn(
          `${path}.onFailure`,
          `${JSON.stringify(onFailure)} is not "block": the hook fails open`,
        );
    }
    if (failClosed && OBSERVE_ONLY_EVENTS.has(event)) {
      this.warn(
        `${path}.onFailure`,
        `${eventName} only observes: "block" has nothing to deny, ignored`,
      );
      failClosed = false;
    }
    let condition: string | undefined;
    if (hook['if'] !== undefined) {
      const rule = typeof hook['if'] === 'string' ? parsePermissionRule(hook['if']) : undefined;
      if (rule === undefined || !rule.ok) {
        this.warn(
          `${path}.if`,
          `${rule?.message ?? 'is not a string'} (expected a permission rule such as "Bash(rm *)"): this hook is skipped`,
        );
        return undefined;
      }
      if (MATCHER_TARGET[event] !== 'tool_name') {
        this.warn(
          `${path}.if`,
          `"if" applies to tool events only, not ${eventName}: this hook is skipped`,
        );
        return undefined;
      }
      condition = hook['if'] as string;
    }
    const env = hook['env'];
    let environment: Record<string, string> | undefined;
    if (env !== undefined) {
      if (!isJsonObject(env) || Object.values(env).some((value) => typeof value !== 'string'))
        this.warn(`${path}.env`, 'is not an object of strings: ignored');
      else environment = env as Record<string, string>;
    }
    const description = typeof hook['description'] === 'string' ? hook['description'] : undefined;
    const statusMessage =
      typeof hook['statusMessage'] === 'string' ? hook['statusMessage'] : undefined;
    return {
      type: 'command',
      name: name ?? defaultHookName(command),
      command,
      ...(description === undefined ? {} : { description }),
      timeoutMs,
      failClosed,
      ...(condition === undefined ? {} : { if: condition }),
      ...(hook['once'] === true ? { once: true as const } : {}),
      ...(hook['async'] === true ? { async: true as const } : {}),
      ...(statusMessage === undefined ? {} : { statusMessage }),
      ...(environment === undefined ? {} : { env: environment }),
      layer: this.origin.layer,
      file: this.origin.file,
      path,
      alsoDefinedIn: [],
    };
  }

  /**
   * Copilot CLI, Cursor, Windsurf: `hooks` keyed by event name, each a list of hooks (each its
   * own group, with its own `matcher`). An event that stands for one kind of tool call (Cursor's
   * `beforeShellExecution`) gets that kind as its matcher, in hookwire's names; an event name the
   * dialect borrows from another (Copilot CLI's PascalCase names) reads as that dialect's.
   */
  readFlat(hooks: unknown): void {
    if (hooks === undefined) return;
    const rules = DIALECTS[this.origin.dialect];
    if (!isJsonObject(hooks)) {
      this.warn('hooks', 'is not an object of events: no hook is loaded from this file');
      return;
    }
    for (const [name, entries] of Object.entries(hooks)) {
      const path = formatJsonPath(['hooks', name]);
      const borrowed = rules.borrowedEvents;
      let dialect = this.origin.dialect;
      let event = dialectEvent(dialect, name);
      if (event === undefined && borrowed !== undefined && Object.hasOwn(borrowed.events, name)) {
        dialect = borrowed.dialect;
        event = borrowed.events[name];
      }
      if (event === undefined) {
        this.warn(
          path,
          `${rules.title}'s event ${JSON.stringify(name)} is not supported by hookwire (its events: ${Object.keys(rules.events).join(', ')}): these hooks are skipped`,
        );
        continue;
      }
      if (!Array.isArray(entries)) {
        this.warn(path, 'is not an array of hooks: skipped');
        continue;
      }
      const hookEvent = event;
      entries.forEach((entry: unknown, index) => {
        const hookPath = formatJsonPath(['hooks', name, index]);
        if (!isJsonObject(entry)) {
          this.warn(hookPath, 'is not a hook object: skipped');
          return;
        }
        const matcher = this.flatMatcher(hookEvent, name, entry['matcher'], hookPath, dialect);
        if (matcher === undefined) return;
        const config = this.readFlatHook(hookEvent, entry, hookPath);
        if (config !== undefined)
          this.push(hookEvent, name, matcher, [config], false, hookPath, dialect);
      });
    }
  }

  /** A flat hook's matcher: the event's own kind of tool call, else its `matcher`. */
  private flatMatcher(
    event: HookEventName,
    name: string,
    value: unknown,
    path: string,
    dialect: DialectName,
  ): { compiled: HookGroupConfig['matcher']; source: string; foreignNames?: boolean } | undefined {
    const tools = DIALECTS[this.origin.dialect].eventTools?.[name];
    if (tools === undefined) return this.matcher(event, value, `${path}.matcher`, dialect);
    if (typeof value === 'string' && value.trim() !== '' && value.trim() !== '*')
      // Ignoring it widens the hook, never narrows it: a guard guards more calls, not fewer.
      this.warn(
        `${path}.matcher`,
        `${name} already stands for one kind of tool call: this matcher is ignored (the hook runs for every such call)`,
      );
    const compiled = tryCompileMatcher(tools, { file: this.origin.file, path });
    if (!compiled.ok) return undefined;
    return { compiled: compiled.matcher, source: tools, foreignNames: false };
  }

  /** One hook of a flat file: its command (per operating system), or `exec` and `args`. */
  private readFlatHook(
    event: HookEventName,
    hook: Readonly<Record<string, unknown>>,
    path: string,
  ): CommandHookConfig | undefined {
    const rules = DIALECTS[this.origin.dialect];
    const type = hook['type'] ?? 'command';
    if (type !== 'command') {
      this.warn(
        `${path}.type`,
        `hook type ${JSON.stringify(type)} is not supported by hookwire for ${rules.title} files (only "command"): this hook is skipped`,
      );
      return undefined;
    }
    for (const key of Object.keys(hook))
      if (!rules.hookFields.includes(key))
        this.warn(
          `${path}.${key}`,
          `hookwire does not implement the hook field ${JSON.stringify(key)}: ignored (the hook runs without it)`,
        );
    const program = this.flatCommand(hook, path);
    if (program === undefined) return undefined;
    // `hookwire relay install`'s entry (Copilot's, Cursor's): hookwire's own hooks run here already.
    if (isRelayCommand(program.command)) return undefined;

    let timeoutMs = rules.defaultTimeoutMs;
    const timeoutField = hook['timeoutSec'] !== undefined ? 'timeoutSec' : 'timeout';
    const timeout = hook[timeoutField];
    if (timeout !== undefined) {
      if (!isPositiveNumber(timeout))
        this.warn(
          `${path}.${timeoutField}`,
          `is not a positive number of ${rules.timeoutUnit}: the default ${rules.defaultTimeoutMs / 1000}s applies`,
        );
      else
        timeoutMs = Math.min(
          MAX_TIMEOUT_MS,
          Math.max(1, Math.round(rules.timeoutUnit === 'seconds' ? timeout * 1000 : timeout)),
        );
    }
    // The tool fails these events' hooks closed (Copilot's preToolUse); Cursor's `failClosed`.
    let failClosed = rules.failClosedAt?.has(event) === true || hook['failClosed'] === true;
    if (failClosed && OBSERVE_ONLY_EVENTS.has(event)) failClosed = false;
    const env = hook['env'];
    let environment: Record<string, string> | undefined;
    if (env !== undefined) {
      if (!isJsonObject(env) || Object.values(env).some((value) => typeof value !== 'string'))
        this.warn(`${path}.env`, 'is not an object of strings: ignored');
      else environment = env as Record<string, string>;
    }
    const cwdValue = hook['cwd'] ?? hook['working_directory'];
    let cwd: string | undefined;
    if (typeof cwdValue === 'string' && cwdValue.trim() !== '') cwd = cwdValue;
    else if (cwdValue !== undefined)
      this.warn(`${path}.cwd`, 'is not a directory name: the hook runs in the project directory');
    // Cursor runs its user-level hooks from `~/.cursor`, the file's directory.
    if (cwd === undefined && rules.userHooksRunIn === 'file' && this.origin.layer === 'user')
      cwd = dirname(this.origin.file);
    const description = typeof hook['comment'] === 'string' ? hook['comment'] : undefined;
    return {
      type: 'command',
      name: defaultHookName(program.command),
      command: program.command,
      ...(program.argv === undefined ? {} : { argv: program.argv }),
      ...(description === undefined ? {} : { description }),
      timeoutMs,
      failClosed,
      ...(environment === undefined ? {} : { env: environment }),
      ...(cwd === undefined ? {} : { cwd }),
      layer: this.origin.layer,
      file: this.origin.file,
      path,
      alsoDefinedIn: [],
    };
  }

  /**
   * The command a flat hook runs here: per operating system as Copilot CLI and VS Code write
   * them (on Linux `linux`, then `bash`, then `command`; on macOS `osx` first), or `exec` with
   * `args`, started without a shell. A hook with only a Windows command (`powershell`,
   * `windows`) is skipped with a warning.
   */
  private flatCommand(
    hook: Readonly<Record<string, unknown>>,
    path: string,
  ): { readonly command: string; readonly argv?: readonly string[] } | undefined {
    const own =
      process.platform === 'darwin' ? 'osx' : process.platform === 'win32' ? 'windows' : 'linux';
    const fields =
      process.platform === 'win32' ? [own, 'powershell', 'command'] : [own, 'bash', 'command'];
    const allowed = DIALECTS[this.origin.dialect].hookFields;
    for (const field of fields) {
      if (!allowed.includes(field)) continue;
      const value = hook[field];
      if (typeof value === 'string' && value.trim() !== '') return { command: value };
      if (value !== undefined) this.warn(`${path}.${field}`, 'is not a command string: ignored');
    }
    const exec = hook['exec'];
    if (allowed.includes('exec') && typeof exec === 'string' && exec.trim() !== '') {
      const args = hook['args'] ?? [];
      if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')) {
        this.warn(`${path}.args`, 'is not an array of strings: this hook is skipped');
        return undefined;
      }
      const argv = [exec, ...(args as string[])];
      return { command: argv.map(shellWord).join(' '), argv };
    }
    const windowsOnly = ['powershell', 'windows'].filter((field) => hook[field] !== undefined);
    if (windowsOnly.length > 0) {
      this.warn(
        path,
        `has only a Windows command (${windowsOnly.join(', ')}), none for ${process.platform} (${fields.filter((field) => allowed.includes(field)).join(', ')}): this hook is skipped`,
      );
      return undefined;
    }
    this.warn(
      path,
      `has no command (${fields.filter((field) => allowed.includes(field)).join(', ')}${allowed.includes('exec') ? ', exec' : ''}): this hook is skipped`,
    );
    return undefined;
  }

  /** Kimi Code: `[[hooks]]` tables, each one hook with its own `event` and `matcher`. */
  readKimi(hooks: unknown): void {
    if (hooks === undefined) return;
    if (!Array.isArray(hooks)) {
      this.warn('hooks', 'is not an array of [[hooks]] tables: no hook is loaded from this file');
      return;
    }
    hooks.forEach((hook: unknown, index) => {
      const path = formatJsonPath(['hooks', index]);
      if (!isJsonObject(hook)) {
        this.warn(path, 'is not a table: skipped');
        return;
      }
      const name = hook['event'];
      const event = typeof name === 'string' ? dialectEvent('kimi', name) : undefined;
      if (typeof name !== 'string' || event === undefined) {
        this.warn(
          `${path}.event`,
          `Kimi Code's event ${JSON.stringify(name)} is not supported by hookwire: this hook is skipped`,
        );
        return;
      }
      const matcher = this.matcher(event, hook['matcher'], `${path}.matcher`);
      if (matcher === undefined) return;
      const config = this.readHook(event, name, hook, path);
      if (config !== undefined) this.push(event, name, matcher, [config], false, path);
    });
  }
}
