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
import type { DialectName } from './dialect-names.ts';

/** A payload, or an answer, as a JSON object. */
export type DialectFields = Readonly<Record<string, unknown>>;

/** Payload fields a dialect's hooks read under their own names, per event. */
export type PayloadExtras = Readonly<
  Partial<Record<HookEventName, (fields: DialectFields) => DialectFields>>
>;

/** One settings file of the dialect, relative to the user's home or the project. */
export interface DialectSource {
  readonly layer: SettingsLayer;
  /**
   * `home`: under `HOOKWIRE_HOME` (default the home directory); `project`: the project root;
   * `system`: under `HOOKWIRE_SYSTEM_ROOT` (default `/`), for machine-wide files such as
   * Windsurf's `/etc/windsurf/hooks.json`.
   */
  readonly under: 'home' | 'project' | 'system';
  /** Its path; a last segment `*.json` stands for every `.json` file of that directory, by name. */
  readonly path: readonly string[];
}

/**
 * A dialect whose hooks read and answer in a shape of their own (Copilot CLI's camelCase events,
 * Cursor, Windsurf), not Claude Code's envelope: the payload is rebuilt whole from hookwire's,
 * and the answer read back into hookwire's (v2, Claude-shaped) fields, the rewritten arguments
 * still in the dialect's names (`vocabulary.ts` translates them).
 */
export interface DialectEnvelope {
  /**
   * hookwire's complete payload (base fields and the event's, tools in the dialect's names) as
   * the tool gives it to a hook registered under `name` (one of its event names); `facts` are
   * what the event knows beyond hookwire's payload.
   */
  payload(
    name: string,
    event: HookEventName,
    payload: DialectFields,
    facts: EnvelopeFacts,
  ): DialectFields;
  /** The hook's JSON answer at `event` in hookwire's fields. */
  answer(event: HookEventName, value: DialectFields): DialectFields;
}

/**
 * What an event knows that hookwire's own payload does not carry, for a dialect whose payload
 * does: `continuations` — Stop continuations already made this turn (Cursor's `loop_count`).
 */
export interface EnvelopeFacts {
  readonly continuations?: number;
}

/** What a dialect's exit codes mean where they differ from Claude Code's (exit 2 blocks). */
export interface DialectExitCodes {
  /** Exit 2 blocks only at these events (Windsurf: its pre-hooks); elsewhere it is a warning. */
  readonly twoBlocksAt?: ReadonlySet<HookEventName>;
  /** Exit 2 gives stderr as context at these events (Copilot's `postToolUseFailure`). */
  readonly twoIsContextAt?: ReadonlySet<HookEventName>;
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
   * naming their `event` (Kimi Code); `flat` — a `hooks` object keyed by event name, each a list
   * of hooks with an optional `matcher` of their own (Copilot CLI, Cursor, Windsurf).
   */
  readonly layout: 'events' | 'entries' | 'flat';
  /**
   * `flat` files: event names that stand for one kind of tool call (Cursor's
   * `beforeShellExecution`, Windsurf's `pre_run_command`), each with the hookwire tools it covers
   * as a hookwire matcher (`shell`, `write_file|edit_file`, `mcp__.*`).
   */
  readonly eventTools?: Readonly<Record<string, string>>;
  /**
   * Event names in its files that switch a hook to another dialect's payloads, answers, tool
   * names and matchers (Copilot CLI's PascalCase names: Claude Code's).
   */
  readonly borrowedEvents?: {
    readonly dialect: DialectName;
    readonly events: Readonly<Record<string, HookEventName>>;
  };
  /** Matchers match the whole value (Copilot CLI anchors them as `^(?:…)$`); else unanchored. */
  readonly anchoredMatchers?: boolean;
  /** Its own payload and answer shapes (see `DialectEnvelope`); absent: Claude Code's. */
  readonly envelope?: DialectEnvelope;
  /**
   * A Claude-shaped tool's touches to Claude Code's payload (no envelope of its own: its answers
   * are Claude Code's): the payload as the tool gives it to a hook registered under `name` (its
   * own event name, Augment's `PromptSubmit`, as `hook_event_name`; the fields it adds).
   */
  readonly claudePayload?: (name: string, payload: DialectFields) => DialectFields;
  /** Exit codes where they differ from Claude Code's. */
  readonly exitCodes?: DialectExitCodes;
  /**
   * Events whose hooks the tool fails closed (Copilot CLI's `preToolUse`: a crash or a non-zero
   * exit denies): hookwire makes them guards, timeouts included (the tool lets a timeout through,
   * a fail-open hookwire does not copy).
   */
  readonly failClosedAt?: ReadonlySet<HookEventName>;
  /**
   * Where a hook of its user-level file runs: `file` — the file's directory (Cursor runs
   * `~/.cursor/hooks.json`'s hooks from `~/.cursor`); absent — the project directory.
   */
  readonly userHooksRunIn?: 'file';
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
  /** Files whose events sit at the root rather than under `hooks` (Factory's `hooks.json`). */
  readonly eventsAtRoot?: (file: string) => boolean;
  /**
   * How its matchers name every MCP tool (`mcp:` for Augment's `mcp:*` and `MCP:.*`): such a
   * matcher matches every `mcp__SERVER__TOOL` (see `foreign-matcher.ts`).
   */
  readonly mcpMatcherPrefix?: string;
}
