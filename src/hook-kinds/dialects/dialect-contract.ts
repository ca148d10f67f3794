/**
 * The `Dialect` interface: everything hookwire knows about one other tool whose hook files it
 * reads, as one object. Each dialect is one folder (`claude/`, `gemini/`, `codex/`, `kimi/`)
 * exporting one `Dialect`, listed once in `dialect.ts` (`DIALECTS`); the generic readers and
 * translators (`foreign-settings.ts`, `foreign-sources.ts`, `translate.ts`, `dialect-answer.ts`,
 * `dialect-shell.ts`) read these members and never test a dialect's name. The built-in tools'
 * names and arguments in each dialect's words are in `vocabulary.ts` (keyed by the same names).
 */
import type { CombinedOutcome, HookEventName } from '../../events/index.ts';
import type { McpServerEntry, readMcpServers } from '../settings/mcp-servers.ts';

/** hookwire's reader of MCP server declarations (`readMcpServers`). */
export type McpServersReader = typeof readMcpServers;
import type { SettingsLayer } from '../settings/settings-layer.ts';
import type { DialectName } from './vocabulary.ts';

/** A payload, or an answer, as a JSON object. */
export type DialectFields = Readonly<Record<string, unknown>>;

/** Payload fields a dialect's hooks read under their own names, per event. */
export type PayloadExtras = Readonly<
  Partial<Record<HookEventName, (fields: DialectFields) => DialectFields>>
>;

/** One settings file of the dialect, relative to the user's home or the project. */
export interface DialectSource {
  readonly layer: SettingsLayer;
  /** `home`: under `HOOKWIRE_HOME` (default the home directory); `project`: the project root. */
  readonly under: 'home' | 'project';
  readonly path: readonly string[];
}

/** Where a settings file came from, for the dialect's own readers' messages. */
export interface DialectOrigin {
  readonly file: string;
  readonly layer: SettingsLayer;
}

/**
 * A dialect whose model hooks see the model call in the tool's own shapes (Gemini CLI's
 * `BeforeModel`, `AfterModel`, `BeforeToolSelection`): the three steps of that translation.
 */
export interface ModelHookCodec {
  readonly events: ReadonlySet<HookEventName>;
  /** hookwire's payload → the tool's. */
  payload(fields: DialectFields): DialectFields;
  /** The tool's answer → hookwire's v2 answer. */
  answer(event: HookEventName, value: DialectFields): DialectFields;
  /** The group's combined outcome laid over the payload hookwire built. */
  align(event: HookEventName, fields: DialectFields, combined: CombinedOutcome): CombinedOutcome;
}

/** Everything hookwire knows about one other tool's hooks (see each member). */
export interface Dialect {
  readonly name: DialectName;
  /** How the tool calls itself in messages: `Claude Code`, `Gemini CLI`, … */
  readonly title: string;
  /** Its settings files, in load order within each layer. */
  readonly sources: readonly DialectSource[];
  /**
   * How its files list hooks: `events` — a `hooks` object keyed by event name, each a list of
   * groups (Claude Code, Gemini CLI, Codex); `entries` — a flat `[[hooks]]` list of entries
   * naming their `event` (Kimi Code).
   */
  readonly layout: 'events' | 'entries';
  /** Whether `hooksConfig.enabled: false` and `hooksConfig.disabled` (by hook name) apply. */
  readonly hooksConfig: boolean;
  /** The fields a hook entry may have (others: a warning naming them, the hook still loads). */
  readonly hookFields: readonly string[];
  /** The fields a group may have. */
  readonly groupFields: readonly string[];
  /** `timeout` in seconds (Claude Code, Codex, Kimi) or milliseconds (Gemini CLI). */
  readonly timeoutUnit: 'seconds' | 'milliseconds';
  /** The tool's own default deadline, in milliseconds. */
  readonly defaultTimeoutMs: number;
  /**
   * Gemini CLI reads stdout's JSON before the exit code (a JSON answer on a non-zero exit still
   * counts); the others read the exit code first (only exit 0's stdout is an answer), except
   * Claude Code's `Stop`, where a JSON `reason` on stdout is used with exit 2.
   */
  readonly jsonBeforeExitCode: boolean;
  /**
   * A hook killed by a signal at an event that can deny: `true` denies (Gemini CLI lets such a
   * call through, a fail-open hookwire does not copy); `false` reads it as a crash.
   */
  readonly killedHookDenies: boolean;
  /** Gemini CLI runs hook commands under `bash -c` when bash exists; the others under `sh -c`. */
  readonly shell: 'bash' | 'sh';
  /**
   * Its event names: the hookwire event each stands for. A name not here is skipped with a
   * warning naming the event.
   */
  readonly events: Readonly<Record<string, HookEventName>>;
  /** Payload fields its hooks read under other names (added beside hookwire's). */
  readonly payloadExtras: PayloadExtras;
  /**
   * Events where its hooks' block is feedback, not a denial (Claude Code's `PostToolUse`: the
   * tool already ran, so the output is kept and the reason fed back beside it).
   */
  readonly feedbackBlocks?: ReadonlySet<HookEventName>;
  /** Its model hooks' shapes, when its model hooks see the tool's own request and response. */
  readonly modelHooks?: ModelHookCodec;
  /**
   * MCP servers its settings file declares (read with its own fields), when it declares any;
   * `read` is hookwire's reader of `.mcp.json`'s shape, passed in so that a dialect object never
   * loads the MCP settings schemas itself (they build zod schemas, which a run whose settings
   * files do not exist never loads).
   */
  readonly mcpServers?: (
    raw: DialectFields,
    origin: DialectOrigin,
    warnings: string[],
    read: McpServersReader,
  ) => McpServerEntry[];
  /**
   * A per-session env file the tool gives one event's hooks (Claude Code's `CLAUDE_ENV_FILE` at
   * `SessionStart`), whose exports apply to later shell commands.
   */
  readonly envFile?: { readonly variable: string; readonly event: HookEventName };
  /**
   * Its settings files' `enabledPlugins` (`{"NAME@MARKETPLACE": true}`) turn on the plugins
   * Claude Code installed (`hook-kinds/plugins/`): Claude Code's, and tools that share its files.
   */
  readonly enablesPlugins?: boolean;
}
