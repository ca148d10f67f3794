/**
 * The contract every kind of external hook implements (`command`, `process`, `http`, `prompt`).
 * A kind is one folder under `src/hook-kinds/` exporting one `HookKind`, plus one line in
 * `registry.ts`. Everything else is shared and generic over the event catalogue:
 * settings parsing and the settings schema (by the entry's `type`), groups and matchers, the
 * adapter into `AgentHook` (`group/external-hook.ts`: match → payload → run the group → the
 * event's action), combining a group's outcomes (`group/combine-outcomes.ts`), `hooks fire`,
 * `hooks list`. Each kind runs against the `AgentHook` contract suite (`src/hooks/testing/`):
 * see `test/command-hooks/agent-hook-contract.test.ts` for the command kind's.
 */
import type { z } from 'zod';
import type { LanguageModel } from '../content/index.ts';
import type { HookEventName, HookOutput, RegisteredEventName } from '../events/index.ts';
import type { AgentHook } from '../hooks/agent-hook.ts';
import type { CommandResult, CommandRunner } from '../supervision/index.ts';
import type { SettingsLayer } from './settings/settings-layer.ts';
import type { PluginDirectory } from './plugins/plugin-directory.ts';
import { PROJECT_DIR_VARIABLES, type DialectName } from './dialects/dialect-names.ts';

/**
 * What settings parsing reads for every kind, whatever its `type`: these fields of the entry are
 * validated (and their issues reported) before the kind's `parse` sees the entry.
 */
export interface HookEntryCommon {
  /** The entry's `name`, when it gave one (the kind picks a default otherwise). */
  readonly name: string | undefined;
  readonly description?: string;
  /** `timeout` in milliseconds (default 60 000). */
  readonly timeoutMs: number;
  /** `failClosed` (default false; rejected on observe-only events before `parse`). */
  readonly failClosed: boolean;
  readonly layer: SettingsLayer;
  readonly file: string;
  /** JSON path of the entry, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string;
}

/**
 * The common fields of a kind's parsed config, as every kind's `parse` writes them after its own
 * fields (`name` and `type` are the kind's: its default name differs).
 */
export function commonConfigFields(common: HookEntryCommon): Omit<HookConfigBase, 'type' | 'name'> {
  return {
    ...(common.description === undefined ? {} : { description: common.description }),
    timeoutMs: common.timeoutMs,
    failClosed: common.failClosed,
    layer: common.layer,
    file: common.file,
    path: common.path,
    alsoDefinedIn: [],
  };
}

/** The fields every kind's config carries (its own fields come beside them). */
export interface HookConfigBase {
  /** The kind (`type` in settings). */
  readonly type: string;
  /** The hook's name in listings, logs and messages. */
  readonly name: string;
  readonly description?: string;
  /** The deadline in milliseconds. */
  readonly timeoutMs: number;
  /** A guard: when it cannot answer, the action it guards is denied. */
  readonly failClosed: boolean;
  readonly layer: SettingsLayer;
  readonly file: string;
  readonly path: string;
  /** Other places defining the same hook (which therefore do not run it again). */
  readonly alsoDefinedIn: readonly string[];
  /**
   * The files inside the project the hook's command runs (its script), by path relative to the
   * project, each `sha256:HEX` of its content or `absent`: part of the hook's identity, so trust
   * covers what it runs (`settings/named-files.ts`). Set by settings loading with trust.
   */
  readonly namedFiles?: Readonly<Record<string, string>>;
}

/** How the processes of hooks that ask to be confined are run (`environment`, `sandbox`). */
export interface HookProcessOptions {
  /** Variables a scrubbed hook keeps although they look like credentials (`passEnvironment`). */
  readonly passEnvironment?: readonly string[];
  /** Sandboxed hooks keep the network (`--sandbox-network`). Default false. */
  readonly sandboxNetwork?: boolean;
  /** Directories a sandboxed hook may write besides the project (`--add-dir`). */
  readonly writableDirectories?: readonly string[];
  /** Files a sandboxed hook may not write although they lie in those (trusted hooks' scripts). */
  readonly readOnlyFiles?: readonly string[];
}

/** One run of one hook, as the group runner asks a kind for it. */
export interface HookRunRequest {
  /** The canonical event, and the name the group was registered under (`hook_event_name`). */
  readonly event: HookEventName;
  readonly registeredAs: RegisteredEventName;
  /** The payload, serialised once per group (the same text for every hook of a parallel group). */
  readonly input: string;
  /**
   * The payload `input` encodes, as the object the group runner built: what an in-process kind
   * (`module`) hands its hook without a JSON round trip, and a kind building its own message from
   * it (`ahp`) reads instead of parsing `input` again. Treat it as read-only (the other hooks
   * of the group share it). Absent: decode `input`.
   */
  readonly payload?: Readonly<Record<string, unknown>>;
  /**
   * The same payload as UTF-8 bytes, encoded once per group (one Buffer for every hook of a
   * parallel group): what a kind writing to a process's stdin sends, so a 10 MB payload is not
   * encoded again per hook. Absent: encode `input`.
   */
  readonly inputBytes?: Uint8Array;
  /** The project directory (hooks run there). */
  readonly projectDir: string;
  /** `HOOKWIRE_PROJECT_DIR`, `HOOKWIRE_SESSION_ID` and the Claude Code / Gemini CLI equivalents. */
  readonly env: Readonly<Record<string, string>>;
  /** Cancels the run: the kind must stop (kill its process, abort its request) when it fires. */
  readonly signal?: AbortSignal;
  /** The supervised process runner, for kinds that start processes. */
  readonly runner: CommandRunner;
  /** SIGTERM → SIGKILL grace for process groups; the runner's default when absent. */
  readonly killGraceMs?: number;
  /** How processes of hooks asking for it (`environment: "scrubbed"`, `sandbox: true`) are confined. */
  readonly confinement?: HookProcessOptions;
  /** The per-session resources of the kinds that keep some (see `HookKind.open`). */
  readonly kinds?: HookKindStates;
  /**
   * The tool the hook's file was written for (`src/hook-kinds/dialects/`): its answer is read by
   * that tool's rules (and a Gemini CLI command runs under bash). Absent for hookwire's own files.
   */
  readonly dialect?: DialectName;
  /** That tool's rules for a command hook (given with `dialect`, by the group runner). */
  readonly dialectRules?: DialectCommandRules;
}

/**
 * What a kind that runs commands asks of the dialect its hook's file was written for: the
 * dialects implement it (`dialects/dialect-answer.ts`), the group runner hands it over, and no
 * kind imports a dialect.
 */
export interface DialectCommandRules {
  /** The command line to start for `command` (Gemini CLI's hooks run under bash). */
  commandLine(command: string): string;
  /** A finished command's answer by the tool's rules; `plain` reads it by hookwire's own. */
  answer(event: HookEventName, result: CommandResult, plain: () => HookAnswer): HookAnswer;
}

/**
 * A kind of external hook.
 *
 * - `type`: the value of `type` in a settings entry; unique across kinds.
 * - `schema`: the zod schema of one settings entry of this kind, a strict object whose `type`
 *   is `z.literal(type)` and which includes the common fields (`name`, `description`, `timeout`,
 *   `failClosed`). It becomes part of the settings file's schema (one kind: as is; several: a
 *   union discriminated on `type`) and of `schemas/settings.schema.json`.
 * - `parse`: the config of one entry that passed the schema, from the entry and the common
 *   fields settings parsing already read. Pure; report nothing here that the schema can say.
 * - `target`: what the hook runs, for listings, records and trust prompts (its command, url or
 *   prompt).
 * - `run`: runs the hook once for one payload and says what it meant (`HookRunOutcome`: the
 *   record for `hooks fire`/stream-json, and its decoded output, plain text, denial or warning,
 *   interpreted under the event's `ExternalPowers`). It never rejects and never outlives
 *   `request.signal` or the config's `timeoutMs`; a failure to answer is a warning, or a denial
 *   when the config fails closed. A kind states its answer as a `HookAnswer` and lets
 *   `interpretAnswer` (`hook-run.ts`) interpret it, so deny/stop/context/rewrite and
 *   `failClosed` follow the same rules whatever runs the hook.
 * - `open` (optional): the resources the kind keeps for one hook session (long-lived processes,
 *   the judging model), opened by `openHookSession` only when the settings use the kind, found
 *   by `run` in `request.kinds`, and closed with the session. `hooks` it returns go last in the
 *   session's stack (after every settings hook), e.g. to stop processes after `SessionEnd`.
 */
export interface HookKind<Config extends HookConfigBase = HookConfigBase, State = unknown> {
  readonly type: Config['type'];
  readonly schema: z.ZodObject;
  /**
   * Settings problems of one entry that depend on the event it is registered under (what the
   * schema cannot say), each a load error at the entry's path + `path`. Optional.
   */
  check?(entry: Readonly<Record<string, unknown>>, registeredAs: string): readonly HookKindIssue[];
  /**
   * The backend an entry subscribes (optional): two entries of one event with the same key are
   * refused at load (one backend, one subscription per event).
   */
  subscription?(config: Config): string;
  /**
   * True: a group holding a hook of this kind runs its hooks one after another in order, and a
   * denial ends the group (the later hooks do not run).
   */
  readonly serial?: boolean;
  parse(entry: Readonly<Record<string, unknown>>, common: HookEntryCommon): Config;
  target(config: Config): string;
  run(config: Config, request: HookRunRequest): Promise<HookRunOutcome>;
  open?(configs: readonly Config[], host: HookKindHost): Promise<HookKindSession<State>>;
}

/** One settings problem a kind's `check` finds (`path` is relative to the entry). */
export interface HookKindIssue {
  readonly path: string;
  readonly message: string;
  readonly fix: string;
}

/** What the host opening a hook session offers the kinds it uses. */
export interface HookKindHost {
  /** The project directory (hooks run there). */
  readonly projectDir: string;
  /**
   * The run's model, asked for when the first `prompt` hook needs it (a host may open its hooks
   * before it resolves its model). Without it, prompt hooks answer a failure.
   */
  readonly promptModel?: () => Promise<LanguageModel>;
  /** Resolves a prompt hook's `model` of the form `PROVIDER:MODEL` (the CLI's model specs). */
  readonly resolveModel?: (spec: string) => Promise<LanguageModel>;
  /**
   * The session's trusted plugin directories (`hook-kinds/plugins/plugin-directory.ts`), for kinds
   * that load what plugins bring (mods). Default: none.
   */
  readonly plugins?: readonly PluginDirectory[];
}

/** One kind's resources in one hook session (see `HookKind.open`). */
export interface HookKindSession<State> {
  readonly state: State;
  /** In-process hooks the session's stack runs after every settings hook. */
  readonly hooks?: readonly AgentHook[];
  /** Releases the resources (stops processes); called once, when the session closes. */
  close(): Promise<void>;
}

/** The per-session states of the kinds of one hook session, by kind. */
export class HookKindStates {
  readonly #states = new Map<string, unknown>();

  /** `state` as the resources of `kind` in this session. */
  set<State>(kind: HookKind<HookConfigBase, State>, state: State): this {
    this.#states.set(kind.type, state);
    return this;
  }

  /** The resources of `kind` in this session, when it has some. */
  get<State>(kind: HookKind<HookConfigBase, State>): State | undefined {
    // Only `set` stores under a kind's type, with that kind's State.
    return this.#states.get(kind.type) as State | undefined;
  }
}

/**
 * What a hook answered, whatever its kind.
 *
 * - `stdout`: text the hook printed as its answer (a command's stdout on exit 0, an http body):
 *   empty means no opinion, JSON is decoded as hook output, other text is plain text (or, with
 *   `jsonOnly`, output that does not decode).
 * - `json`: an answer that is already a JSON value (a process hook's `result`); `null` means no
 *   opinion.
 * - `block`: a blocking answer with its reason (a command's exit 2 and its stderr).
 * - `failure`: the hook could not answer (timeout, crash, garbage, unreachable server): a
 *   warning, or a denial when the hook fails closed.
 */
export type HookAnswer =
  | {
      readonly kind: 'stdout';
      readonly text: string;
      /** Plain text is not an answer here (http hooks answer JSON or nothing). */
      readonly jsonOnly?: boolean;
      /** Appended to a decode error (e.g. the output was truncated at its cap). */
      readonly note?: string;
    }
  | { readonly kind: 'json'; readonly value: unknown }
  | {
      readonly kind: 'block';
      /** The reason given; empty when none was. */
      readonly reason: string;
      /** How it blocked, for messages: `exit 2`. */
      readonly how: string;
      /** The same as a verb phrase: `exited 2`. */
      readonly verb: string;
      /** Completes "(exit 2, …)" when no reason was given, e.g. `no reason on stderr`. */
      readonly missingReason: string;
    }
  | {
      readonly kind: 'failure';
      readonly status: 'warning' | 'timeout' | 'error';
      /** Completes "hook "NAME" (Event) …", e.g. "timed out after 5s". */
      readonly what: string;
    };

/** A failure answer. */
export function failureAnswer(status: 'warning' | 'timeout' | 'error', what: string): HookAnswer {
  return { kind: 'failure', status, what };
}

/** What a kind's runner needs from a `HookRunRequest` to answer one payload. */
export type HookRunContext = Pick<HookRunRequest, 'input' | 'projectDir' | 'env' | 'signal'>;

/** One answer and the facts of the run that gave it (for `HookRunRecord`). */
export interface HookExecution {
  readonly answer: HookAnswer;
  readonly durationMs: number;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
}

/** Answers payloads for the hooks of one kind. `run` never rejects for anything a hook does. */
export interface HookKindRunner<Config extends HookConfigBase> {
  run(hook: Config, context: HookRunContext): Promise<HookExecution>;
}

/** The variables every hook gets over the inherited environment, whatever its kind. */
export function hookEnvironment(projectDir: string, sessionId: string): Record<string, string> {
  return {
    HOOKWIRE_PROJECT_DIR: projectDir,
    HOOKWIRE_SESSION_ID: sessionId,
    // The same hook scripts run unchanged under Claude Code, Gemini CLI and the Claude-shaped
    // tools, which set these.
    ...Object.fromEntries(PROJECT_DIR_VARIABLES.map((variable) => [variable, projectDir])),
  };
}

/**
 * `ok`: exited 0 and its output decoded. `blocked`: it denied (exit 2, or a JSON deny).
 * `warning`: a non-zero exit other than 2, or output that does not decode (non-blocking).
 * `timeout`: its deadline passed. `error`: it could not run (missing command, spawn failure,
 * killed, cancelled). `failed-closed`: one of the failures above, on a hook marked `failClosed`,
 * which therefore denied what it guards.
 */
export type HookRunStatus = 'ok' | 'blocked' | 'warning' | 'timeout' | 'error' | 'failed-closed';

/** One hook run, in the shape `hookwire hooks fire` prints in `hooks[]`. */
export interface HookRunRecord {
  /** The event as registered in settings (canonical name or alias). */
  readonly event: RegisteredEventName;
  readonly name: string;
  /** The hook's kind: its settings `type` (`command`, `process`, `http`, `prompt`, …). */
  readonly kind: string;
  /**
   * What the hook runs, in its kind's words (`HookKind.target`): the command line (command,
   * process), the URL (http), the prompt (prompt).
   */
  readonly target: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  readonly status: HookRunStatus;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** Why the run is not `ok`, when it is not (the warning or the failure). */
  readonly detail?: string;
}

/** What one hook run means for the event it ran for. */
export interface HookRunOutcome {
  readonly record: HookRunRecord;
  readonly hook: HookConfigBase;
  /** The decoded JSON output (exit 0 only). */
  readonly output?: HookOutput;
  /** Plain-text stdout (exit 0 only). */
  readonly text?: string;
  /** Set when this hook denies: exit 2, a JSON deny, or a fail-closed failure. */
  readonly denial?: string;
  /**
   * Set beside `denial` when the denial is a PreToolUse `permissionDecision: "ask"`: who asked
   * and why (a host with a person to ask asks them instead of denying).
   */
  readonly asks?: { readonly by: string; readonly reason: string };
  /** A non-blocking problem to report as a warning. */
  readonly warning?: string;
  /** What the hook was seen to print, and whether it ran out of time: for records and traces. */
  readonly io?: HookRunIo;
}

/** The raw answer of one run, as observations (transcript records, spans) show it. */
export interface HookRunIo {
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** The fields of a `HookRunRecord` a kind knows before interpretation (all but `status`). */
export type HookRunFacts = Omit<HookRunRecord, 'status' | 'detail'>;
