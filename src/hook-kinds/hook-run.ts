/**
 * One hook's run, as reported to `hookwire hooks fire`, `stream-json` and the `onHookRun`
 * callback, and its interpretation under the protocol of the design brief: `interpretAnswer` is
 * the one interpreter of every kind's answer (command, process, http, prompt). A kind turns what
 * it ran into a `HookAnswer` (the command kind in `command/command-answer.ts`, a dialect's
 * command hook in `dialects/dialect-answer.ts`); nothing here knows a kind or a dialect.
 */
import type { HookRunDecision } from '../events/observed-hook-run.ts';
import {
  canonicalEventName,
  decodeHookOutput,
  externalSide,
  type HookEventName,
  type HookOutput,
  type RegisteredEventName,
} from '../events/index.ts';
import { guardStdoutProblem, parseHookStdout } from '../wire/index.ts';
import type {
  HookAnswer,
  HookConfigBase,
  HookExecution,
  HookRunFacts,
  HookRunOutcome,
  HookRunRequest,
} from './hook-kind.ts';

export type {
  HookRunFacts,
  HookRunIo,
  HookRunOutcome,
  HookRunRecord,
  HookRunStatus,
} from './hook-kind.ts';

/**
 * Interprets one answer of any hook kind for `event` — the single place where an answer
 * becomes a denial, a warning or decoded output. A failure is a warning, or a denial saying
 * which failure it was when the hook fails closed; JSON denies through top-level
 * `decision: "deny"` or PreToolUse `permissionDecision` (`ask` denies: hookwire is headless).
 */
export function interpretAnswer(
  event: HookEventName,
  registeredAs: RegisteredEventName,
  hook: HookConfigBase,
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
  // A dialect's own event name (Cursor's `beforeShellExecution`) decodes as the event it stands for.
  const decoded = decodeHookOutput(
    canonicalEventName(registeredAs) === undefined ? event : registeredAs,
    value,
  );
  if (!decoded.ok)
    return failure('warning', `printed output that does not decode: ${decoded.error.message}`);
  const output = decoded.value;
  const denial = deniedBy(event, output, label);
  if (denial !== undefined) {
    const asks = askOf(output, label);
    return {
      hook,
      record: { ...base, status: 'blocked', detail: denial },
      output,
      denial,
      ...(asks === undefined ? {} : { asks }),
    };
  }
  return { hook, record: { ...base, status: 'ok' }, output };
}

/**
 * Interprets what a kind's runner reported for one run (`HookExecution`) as `interpretAnswer`
 * does; `target` is what the hook runs (`HookKind.target`).
 */
export function interpretExecution(
  request: Pick<HookRunRequest, 'event' | 'registeredAs'>,
  hook: HookConfigBase,
  target: string,
  execution: HookExecution,
): HookRunOutcome {
  const facts: HookRunFacts = {
    event: request.registeredAs,
    name: hook.name,
    kind: hook.type,
    target,
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

/** A PreToolUse `permissionDecision: "ask"` (and no outright deny): who asked and why. */
function askOf(
  output: HookOutput,
  label: string,
): { readonly by: string; readonly reason: string } | undefined {
  const specific = output.hookSpecificOutput as
    { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
  if (specific?.permissionDecision !== 'ask' || output.decision === 'deny') return undefined;
  return {
    by: label,
    reason: specific.permissionDecisionReason ?? output.reason ?? `${label} asks for approval`,
  };
}
