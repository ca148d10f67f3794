/**
 * What every hook kind shares: the answer it gives (`HookAnswer`), which one interpreter
 * (`interpretAnswer` in `command/hook-run.ts`) turns into a denial, a warning or decoded output
 * for every kind alike, and the runner interface a kind implements to answer one payload.
 * A kind never interprets its own answers: that keeps deny/stop/context/rewrite and
 * `failClosed` the same rules whatever runs the hook.
 */
import type { HookEventName, RegisteredEventName } from '../events/index.ts';
import type {
  HookConfig,
  HttpHookConfig,
  ProcessHookConfig,
  PromptHookConfig,
} from './settings/hook-config.ts';

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

/** Everything a kind needs to answer one event. */
export interface HookRunContext {
  readonly event: HookEventName;
  readonly registeredAs: RegisteredEventName;
  /** The complete payload (what a command hook reads on stdin). */
  readonly payload: Readonly<Record<string, unknown>>;
  /** `payload` serialised once, shared by every hook of the group that sees the same input. */
  readonly input: string;
  /** The project directory: hooks run there. */
  readonly projectDir: string;
  readonly sessionId: string;
  /** The hook environment (`HOOKWIRE_PROJECT_DIR`, `HOOKWIRE_SESSION_ID`, …). */
  readonly env: Readonly<Record<string, string>>;
  /** Cancels the run: it answers a failure ("was cancelled before it answered"). */
  readonly signal?: AbortSignal;
}

/** One answer and the facts of the run that gave it (for `HookRunRecord`). */
export interface HookExecution {
  readonly answer: HookAnswer;
  readonly durationMs: number;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
}

/** Answers payloads for the hooks of one kind. `run` never rejects for anything a hook does. */
export interface HookKindRunner<H extends HookConfig> {
  run(hook: H, context: HookRunContext): Promise<HookExecution>;
}

/**
 * The runners of the kinds other than `command` (which runs through the `CommandRunner`). A
 * group holding a hook whose kind has no runner here answers a failure for that hook.
 */
export interface HookKindRunners {
  readonly process?: HookKindRunner<ProcessHookConfig>;
  readonly http?: HookKindRunner<HttpHookConfig>;
  readonly prompt?: HookKindRunner<PromptHookConfig>;
}

/** The variables every hook gets over the inherited environment, whatever its kind. */
export function hookEnvironment(projectDir: string, sessionId: string): Record<string, string> {
  return {
    HOOKWIRE_PROJECT_DIR: projectDir,
    HOOKWIRE_SESSION_ID: sessionId,
    // The same hook scripts run unchanged under Claude Code and Gemini CLI, which set these.
    CLAUDE_PROJECT_DIR: projectDir,
    GEMINI_PROJECT_DIR: projectDir,
  };
}
