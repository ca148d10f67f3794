/**
 * The contract every kind of external hook implements (`command` today; `process`, `http`,
 * `prompt` next). A kind is one folder under `src/hook-kinds/` exporting one `HookKind`, plus
 * one line in `registry.ts`. Everything else is shared and generic over the event catalogue:
 * settings parsing and the settings schema (by the entry's `type`), groups and matchers, the
 * adapter into `AgentHook` (`command/command-hook.ts`: match → payload → run the group → the
 * event's action), combining a group's outcomes (`command/combine-outcomes.ts`), `hooks fire`,
 * `hooks list`. Each kind runs against the `AgentHook` contract suite (`src/hooks/testing/`):
 * see `test/command-hooks/agent-hook-contract.test.ts` for the command kind's.
 */
import type { z } from 'zod';
import type { HookEventName, RegisteredEventName } from '../events/index.ts';
import type { HookRunOutcome } from './command/hook-run.ts';
import type { HookProcessOptions } from './command/run-hook-group.ts';
import type { CommandRunner } from './command/runner/index.ts';
import type { SettingsLayer } from './settings/settings-layer.ts';

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
}

/** One run of one hook, as the group runner asks a kind for it. */
export interface HookRunRequest {
  /** The canonical event, and the name the group was registered under (`hook_event_name`). */
  readonly event: HookEventName;
  readonly registeredAs: RegisteredEventName;
  /** The payload, serialised once per group (the same text for every hook of a parallel group). */
  readonly input: string;
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
 * - `run`: runs the hook once for one payload and says what it meant (`HookRunOutcome`: the
 *   record for `hooks fire`/stream-json, and its decoded output, plain text, denial or warning,
 *   interpreted under the event's `ExternalPowers`). It never rejects and never outlives
 *   `request.signal` or the config's `timeoutMs`; a failure to answer is a warning, or a denial
 *   when the config fails closed (see `command/hook-run.ts`, `interpretRun`).
 */
export interface HookKind<Config extends HookConfigBase = HookConfigBase> {
  readonly type: Config['type'];
  readonly schema: z.ZodObject;
  parse(entry: Readonly<Record<string, unknown>>, common: HookEntryCommon): Config;
  run(config: Config, request: HookRunRequest): Promise<HookRunOutcome>;
}
