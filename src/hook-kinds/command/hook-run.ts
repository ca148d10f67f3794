/**
 * One hook's run, as reported to `hookwire hooks fire`, `stream-json` and the `onHookRun`
 * callback, and its interpretation under the protocol of the design brief: `interpretAnswer` is
 * the one interpreter of every kind's answer (command, process, http, prompt).
 */
import type { HookRunDecision } from '../../events/observed-hook-run.ts';
import {
  decodeHookOutput,
  externalSide,
  type HookEventName,
  type HookOutput,
  type RegisteredEventName,
} from '../../events/index.ts';
import { guardStdoutProblem, parseHookStdout } from '../../wire/index.ts';
import {
  failureAnswer,
  type HookAnswer,
  type HookExecution,
  type HookRunRequest,
} from '../hook-kind.ts';
import type { HookConfig } from '../registry.ts';
import type { CommandResult } from './runner/index.ts';
import type { CommandHookConfig } from '../settings/hook-config.ts';
import { formatDuration } from '../settings/duration.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import { DIALECTS } from '../dialects/dialect.ts';
import type { DialectName } from '../dialects/vocabulary.ts';
import { blockIsFeedback, foreignAnswer, normalizeForeignAnswer } from '../dialects/translate.ts';

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
  /** What the hook runs: its command (command, process), url (http) or prompt (prompt). */
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  readonly status: HookRunStatus;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** Why the run is not `ok`, when it is not (the warning or the failure). */
  readonly detail?: string;
}

/**
 * What one hook run decided on its own (`decisionOf`) and why (its denial, its stop reason, or
 * what failed), as the `onHookRun` callbacks get it beside the record: the text output prints a
 * line per denial, stop and failed-closed guard from it.
 */
export interface HookRunVerdict {
  readonly decision: HookRunDecision;
  readonly reason?: string;
}

/**
 * The verdict of one hook run (see `HookRunVerdict`); `dialect` is the group's, whose blocks may
 * be feedback rather than denials (`blockIsFeedback`: Claude Code's `PostToolUse`).
 */
export function verdictOf(
  event: HookEventName,
  outcome: HookRunOutcome,
  dialect?: string,
): HookRunVerdict {
  const own = decisionOf(event, outcome);
  const decision = own === 'deny' && blockIsFeedback(dialect, event) ? 'context' : own;
  const stopReason = outcome.output?.stopReason;
  const reason =
    outcome.denial ??
    (decision === 'stop' && typeof stopReason === 'string' ? stopReason : undefined) ??
    outcome.output?.reason ??
    outcome.record.detail;
  return reason === undefined ? { decision } : { decision, reason };
}

/** What one hook run means for the event it ran for. */
export interface HookRunOutcome {
  readonly record: HookRunRecord;
  readonly hook: HookConfig;
  /** The decoded JSON output (exit 0 only). */
  readonly output?: HookOutput;
  /** Plain-text stdout (exit 0 only). */
  readonly text?: string;
  /** Set when this hook denies: exit 2, a JSON deny, or a fail-closed failure. */
  readonly denial?: string;
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

const NOT_FOUND = 127;
const NOT_EXECUTABLE = 126;
const BLOCKING_EXIT = 2;

/** The fields of a `HookRunRecord` a kind knows before interpretation (all but `status`). */
export type HookRunFacts = Omit<HookRunRecord, 'status' | 'detail'>;

/**
 * Interprets one answer of any hook kind for `event` — the single place where an answer
 * becomes a denial, a warning or decoded output. A failure is a warning, or a denial saying
 * which failure it was when the hook fails closed; JSON denies through top-level
 * `decision: "deny"` or PreToolUse `permissionDecision` (`ask` denies: hookwire is headless).
 */
export function interpretAnswer(
  event: HookEventName,
  registeredAs: RegisteredEventName,
  hook: HookConfig,
  facts: HookRunFacts,
  answer: HookAnswer,
): HookRunOutcome {
  const base = facts;
  const label = `hook "${hook.name}" (${registeredAs})`;

  const failure = (status: 'warning' | 'timeout' | 'error', what: string): HookRunOutcome => {
    if (hook.failClosed) {
      const denial = `${label} ${what}; it is marked failClosed, so the action it guards is denied`;
      return { hook, record: { ...base, status: 'failed-closed', detail: what }, denial };
    }
    return { hook, record: { ...base, status, detail: what }, warning: `${label} ${what}` };
  };

  let value: unknown;
  switch (answer.kind) {
    case 'failure':
      return failure(answer.status, answer.what);
    case 'block': {
      const reason =
        answer.reason || `blocked by ${label} (${answer.how}, ${answer.missingReason})`;
      if (!externalSide(event).can.deny)
        return {
          hook,
          record: { ...base, status: 'warning', detail: `${answer.how} cannot block this event` },
          warning: `${label} ${answer.verb}, but ${event} cannot be blocked: ${reason}`,
        };
      return { hook, record: { ...base, status: 'blocked', detail: reason }, denial: reason };
    }
    case 'json':
      if (answer.value === null) return { hook, record: { ...base, status: 'ok' } };
      value = answer.value;
      break;
    case 'stdout': {
      // A guard's answer must be exactly one JSON object (or nothing): anything else denies.
      const guardProblem = hook.failClosed ? guardStdoutProblem(answer.text) : undefined;
      if (guardProblem !== undefined) return failure('warning', guardProblem + (answer.note ?? ''));
      const stdout = parseHookStdout(answer.text);
      switch (stdout.kind) {
        case 'empty':
          return { hook, record: { ...base, status: 'ok' } };
        case 'text':
          if (answer.jsonOnly === true)
            return failure('warning', 'answered a body that is not a JSON object');
          return { hook, record: { ...base, status: 'ok' }, text: stdout.text };
        case 'invalid-json':
          return failure(
            'warning',
            `printed output that does not decode: ${stdout.error}${answer.note ?? ''}`,
          );
        case 'json':
          value = stdout.value;
          break;
      }
      break;
    }
  }
  const decoded = decodeHookOutput(registeredAs, value);
  if (!decoded.ok)
    return failure('warning', `printed output that does not decode: ${decoded.error.message}`);
  const output = decoded.value;
  const denial = deniedBy(event, output, label);
  if (denial !== undefined)
    return { hook, record: { ...base, status: 'blocked', detail: denial }, output, denial };
  return { hook, record: { ...base, status: 'ok' }, output };
}

/**
 * Interprets what a kind's runner reported for one run (`HookExecution`) as `interpretAnswer`
 * does; `target` is what the hook runs (`HookKind.target`).
 */
export function interpretExecution(
  request: Pick<HookRunRequest, 'event' | 'registeredAs'>,
  hook: HookConfig,
  target: string,
  execution: HookExecution,
): HookRunOutcome {
  const facts: HookRunFacts = {
    event: request.registeredAs,
    name: hook.name,
    command: target,
    exitCode: execution.exitCode ?? null,
    signal: execution.signal ?? null,
    durationMs: Math.round(execution.durationMs),
    stdoutTruncated: false,
    stderrTruncated: false,
  };
  const outcome = interpretAnswer(
    request.event,
    request.registeredAs,
    hook,
    facts,
    execution.answer,
  );
  const timedOut = execution.answer.kind === 'failure' && execution.answer.status === 'timeout';
  const stdout =
    execution.answer.kind === 'stdout'
      ? execution.answer.text
      : execution.answer.kind === 'json' && execution.answer.value !== null
        ? JSON.stringify(execution.answer.value)
        : '';
  return { ...outcome, io: { stdout, stderr: '', timedOut } };
}

/**
 * Interprets one command run: exit 0 is its stdout as the answer; exit 2 blocks with stderr as
 * the reason; any other exit is a warning. A failure to answer — timeout, missing command,
 * spawn error, kill, cancellation, undecodable output, crash — is a warning, or a denial saying
 * which failure it was when the hook fails closed (see `interpretAnswer`).
 */
export function interpretRun(
  event: HookEventName,
  registeredAs: RegisteredEventName,
  hook: CommandHookConfig,
  result: CommandResult,
  dialect?: DialectName,
): HookRunOutcome {
  const facts: HookRunFacts = {
    event: registeredAs,
    name: hook.name,
    command: hook.command,
    exitCode: result.exitCode,
    signal: result.signal,
    durationMs: Math.round(result.durationMs),
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
  };
  const io: HookRunIo = {
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.termination === 'timeout',
  };
  return {
    ...interpretAnswer(
      event,
      registeredAs,
      hook,
      facts,
      dialect === undefined
        ? commandAnswer(hook, result)
        : dialectAnswer(event, hook, result, dialect),
    ),
    io,
  };
}

/** What a command run answered, in the terms every hook kind shares. */
export function commandAnswer(hook: CommandHookConfig, result: CommandResult): HookAnswer {
  const failure = failureAnswer;
  switch (result.termination) {
    case 'timeout':
      return failure('timeout', `timed out after ${formatDuration(hook.timeoutMs)}`);
    case 'aborted':
      return failure('error', 'was cancelled before it answered');
    case 'spawn-error':
      return failure('error', `could not start: ${result.spawnError ?? 'unknown spawn error'}`);
    case 'exited':
      break;
  }
  if (result.exitCode === null)
    return failure('error', `was killed by ${result.signal ?? 'a signal'}${stderrTail(result)}`);
  if (result.exitCode === NOT_FOUND)
    return failure(
      'error',
      `is missing: the command was not found (exit 127)${stderrTail(result)}`,
    );
  if (result.exitCode === NOT_EXECUTABLE)
    return failure('error', `is not executable (exit 126)${stderrTail(result)}`);
  if (result.exitCode === BLOCKING_EXIT)
    return {
      kind: 'block',
      reason: result.stderr.trim(),
      how: 'exit 2',
      verb: 'exited 2',
      missingReason: 'no reason on stderr',
    };
  if (result.exitCode !== 0)
    return failure('warning', `crashed (exit ${result.exitCode})${stderrTail(result)}`);
  return { kind: 'stdout', text: result.stdout, note: truncatedNote(result) };
}

/**
 * What a dialect's command run answered, by that tool's rules: Gemini CLI reads stdout's JSON
 * before the exit code (exit 2 still blocks: the safe reading), and a Gemini hook killed by a
 * signal blocks (Gemini lets it through, a fail-open bug); at Claude Code's `Stop` and
 * `SubagentStop` a JSON
 * `reason` on stdout is the reason even with exit 2. A JSON answer has the fields hookwire does
 * not implement removed (`normalizeForeignAnswer`) before it is decoded.
 */
function dialectAnswer(
  event: HookEventName,
  hook: CommandHookConfig,
  result: CommandResult,
  dialect: DialectName,
): HookAnswer {
  const rules = DIALECTS[dialect];
  const parsed = parseHookStdout(result.stdout);
  const json = parsed.kind === 'json' && isJsonObject(parsed.value) ? parsed.value : undefined;
  const reason = typeof json?.['reason'] === 'string' ? json['reason'] : undefined;
  if (result.termination === 'exited') {
    if (result.exitCode === null && dialect === 'gemini' && externalSide(event).can.deny)
      return {
        kind: 'block',
        reason: `killed by ${result.signal ?? 'a signal'}: denied (a Gemini CLI hook that does not answer is not an allow in hookwire)`,
        how: 'a signal',
        verb: 'was killed',
        missingReason: 'no answer',
      };
    if (
      result.exitCode === BLOCKING_EXIT &&
      (event === 'Stop' || event === 'SubagentStop' || rules.jsonBeforeExitCode)
    )
      return {
        kind: 'block',
        reason: reason ?? result.stderr.trim(),
        how: 'exit 2',
        verb: 'exited 2',
        missingReason: 'no reason on stderr or in its JSON',
      };
    if (
      json !== undefined &&
      (result.exitCode === 0 ||
        (rules.jsonBeforeExitCode &&
          result.exitCode !== NOT_FOUND &&
          result.exitCode !== NOT_EXECUTABLE))
    )
      return {
        kind: 'json',
        value: normalizeForeignAnswer(event, foreignAnswer(dialect, event, json)).value,
      };
  }
  return commandAnswer(hook, result);
}

const REWRITE_FIELDS = [
  'tool_input',
  'updatedInput',
  'llm_request',
  'llm_response',
  'toolChoice',
  'updatedToolOutput',
] as const;

/**
 * What one run decided on its own, for records and spans: a stop (`continue: false`, or a
 * fail-closed failure where the event can only stop) before a denial, a denial before a rewrite,
 * a rewrite before added context; anything else lets the action through (`allow`), failures that
 * fail open included.
 */
export function decisionOf(event: HookEventName, outcome: HookRunOutcome): HookRunDecision {
  const can = externalSide(event).can;
  const output = outcome.output;
  if (output?.continue === false && can.stop) return 'stop';
  if (outcome.denial !== undefined) {
    // A denial where the event has none stands for its fail-closed meaning (no tools, a stop).
    if (can.deny || can.failClosed === 'deny' || can.failClosed === 'no-tools') return 'deny';
    return can.failClosed === 'stop' ? 'stop' : 'allow';
  }
  const specific = output?.hookSpecificOutput as Readonly<Record<string, unknown>> | undefined;
  if (specific !== undefined && REWRITE_FIELDS.some((field) => specific[field] !== undefined))
    return 'rewrite';
  if (specific?.['additionalContext'] !== undefined) return 'context';
  if (outcome.text !== undefined && can.textIsContext) return 'context';
  return 'allow';
}

function deniedBy(event: HookEventName, output: HookOutput, label: string): string | undefined {
  // Only PreToolUse's output schema admits `permissionDecision`.
  const specific = output.hookSpecificOutput as
    | {
        permissionDecision?: string;
        permissionDecisionReason?: string;
        decision?: { behavior?: string; message?: string };
      }
    | undefined;
  // Only PermissionRequest's output schema admits `decision` (Claude Code's answer shape).
  if (specific?.decision?.behavior === 'deny')
    return specific.decision.message ?? output.reason ?? `denied by ${label}`;
  if (specific?.permissionDecision !== undefined) {
    if (specific.permissionDecision === 'deny')
      return specific.permissionDecisionReason ?? output.reason ?? `denied by ${label}`;
    // `ask` needs a person; hookwire runs headless, so the call is denied and the reason says why.
    if (specific.permissionDecision === 'ask')
      return `${specific.permissionDecisionReason ?? output.reason ?? `${label} asks for approval`} (approval required, and hookwire runs without an interactive user: denied)`;
  }
  if (output.decision === 'deny' && externalSide(event).can.deny)
    return output.reason ?? `denied by ${label} (no reason given)`;
  return undefined;
}

function stderrTail(result: CommandResult): string {
  const text = result.stderr.trim();
  if (text === '') return '';
  const tail = text.length > 500 ? `…${text.slice(-500)}` : text;
  return `: ${tail}`;
}

function truncatedNote(result: CommandResult): string {
  return result.stdoutTruncated ? '; stdout was truncated at the output cap' : '';
}
