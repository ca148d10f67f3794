/**
 * One hook's run as the loop observes it, whatever the hook's kind: a command hook's process, a
 * long-lived process's request, an HTTP call, a prompt hook's model call, or an in-process member
 * of a stack. The loop writes each to the transcript (`hook-run` records) and, with a tracer, as a
 * span under what the hook guarded; `hookwire hooks stats` and `hookwire trace` read them back.
 */

/**
 * What one hook decided, on its own (the event's combined outcome is the stack's business):
 * - `allow`: it let the action through unchanged (also a failure that fails open);
 * - `deny`: it denied or blocked (exit 2, a JSON deny, a Stop block, a failed-closed failure);
 * - `stop`: it stopped the run (`continue: false`);
 * - `rewrite`: it changed the action (arguments, request, response, tool output, tool choice);
 * - `context`: it added context for the model.
 */
export type HookRunDecision = 'allow' | 'deny' | 'stop' | 'rewrite' | 'context';

/**
 * How the run went: `ok`; `blocked` (it denied); `warning` (a non-blocking failure: a crash, an
 * undecodable answer); `timeout`; `error` (it could not run, or was cancelled); `failed-closed`
 * (one of those failures, on a hook marked `failClosed`, which therefore denied).
 */
export type ObservedHookRunStatus =
  'ok' | 'blocked' | 'warning' | 'timeout' | 'error' | 'failed-closed';

/** One hook run, reported through `HookContext.recordHookRun`. */
export interface ObservedHookRun {
  /** The event, as the hook was registered for it (`PreToolUse`, an alias, or an in-process kind). */
  readonly event: string;
  /** The hook's name (settings `name`, its command, or the in-process hook's name). */
  readonly hook: string;
  /** `command`, `process`, `http`, `prompt` or `in-process`. */
  readonly kind: string;
  /** The settings dialect it was written for (`hookwire`, `claude`, `gemini`, …), when from settings. */
  readonly dialect?: string;
  /** The group's matcher as written, when it has one. */
  readonly matcher?: string;
  readonly decision: HookRunDecision;
  readonly status: ObservedHookRunStatus;
  /** Why it denied or stopped, or what failed (a one-line reason). */
  readonly reason?: string;
  /** When it started, in milliseconds since the epoch. */
  readonly startTime: number;
  readonly durationMs: number;
  /** The process's exit code (command hooks; `null` when killed by a signal). */
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly timedOut: boolean;
  readonly failedClosed: boolean;
  /** The tool call it guarded (tool events), so concurrent tool calls keep their own hooks. */
  readonly toolCallId?: string;
  /** What the hook received (its stdin JSON), cut to a bounded size with a note. */
  readonly payload?: string;
  /** What it answered (stdout), cut likewise. */
  readonly answer?: string;
  /** Its stderr, cut likewise. */
  readonly stderr?: string;
}

/** The most characters of a payload, answer or stderr a hook-run record keeps. */
export const HOOK_RUN_TEXT_LIMIT = 8192;

/**
 * `text` cut to `limit` characters, with a note saying how long it was, so a transcript stays
 * bounded however large the payloads (a BeforeModel payload holds the whole conversation).
 */
export function boundedText(text: string, limit: number = HOOK_RUN_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… [truncated: ${text.length} characters in all, the first ${limit} kept]`;
}

/** Action kinds that refuse what the event proposed (a denial, a skipped call, a Stop block, a rejected answer). */
const REFUSING: ReadonlySet<string> = new Set(['deny', 'skip', 'block', 'fail', 'retry', 'repeat']);
/** Action kinds that change what the event proposed. */
const CHANGING: ReadonlySet<string> = new Set([
  'rewrite',
  'replace',
  'patch',
  'respond',
  'select',
  'choose',
  'repair',
]);

/**
 * What an in-process hook's action decided, on its own, in the terms of `HookRunDecision` (the
 * command hooks' `decisionOf` says the same of their outputs): `stop`; a refusal (`deny`, `skip`,
 * `block`, a rejected model answer) is `deny`; a change (`rewrite`, `replace`, `patch`, `respond`,
 * a model or tool choice, an `allow` with `updatedInput`) is `rewrite`; added context is
 * `context`; anything else (`continue`, `run`, `keep`, `allow`, no answer) is `allow`.
 */
export function actionDecision(action: unknown): HookRunDecision {
  if (typeof action !== 'object' || action === null) return 'allow';
  const record = action as {
    readonly kind?: unknown;
    readonly additionalContext?: unknown;
    readonly updatedInput?: unknown;
  };
  const kind = typeof record.kind === 'string' ? record.kind : '';
  if (kind === 'stop') return 'stop';
  if (REFUSING.has(kind)) return 'deny';
  if (CHANGING.has(kind) || (kind === 'allow' && record.updatedInput !== undefined))
    return 'rewrite';
  if (typeof record.additionalContext === 'string' && record.additionalContext !== '')
    return 'context';
  return 'allow';
}

/** The one-line reason an action carries (`reason`, `message` or `feedback`), if any. */
export function actionReason(action: unknown): string | undefined {
  if (typeof action !== 'object' || action === null) return undefined;
  const record = action as {
    readonly reason?: unknown;
    readonly message?: unknown;
    readonly feedback?: unknown;
  };
  for (const value of [record.reason, record.message, record.feedback])
    if (typeof value === 'string') return value;
  return undefined;
}
