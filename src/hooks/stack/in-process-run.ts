/**
 * What an in-process member's run looks like in records and traces (kind `in-process`): its
 * decision, status and reason derived from the action it answered (or from its failure), its
 * timing, and its answer as bounded JSON text. `HookStack` builds one per recorded call.
 */
import {
  actionDecision,
  actionReason,
  boundedText,
  type ObservedHookRun,
} from '../../events/index.ts';
import type { Dispatcher } from './dispatchers.ts';

export function kindOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null
    ? (value as { readonly kind?: unknown }).kind
    : undefined;
}

export function describeReturned(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const kind = kindOf(value);
  return kind === undefined
    ? 'an object without a `kind`'
    : `an action of kind ${JSON.stringify(kind)}`;
}

/** The answer an in-process run gave, as a bounded JSON text (nothing when it cannot be written). */
function answerText(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  try {
    return boundedText(JSON.stringify(result));
  } catch {
    return undefined;
  }
}

/**
 * The observation of one in-process run: `result` is what the member answered (settled), or
 * `error` what it threw; an answer the event does not allow counts as a failure, as the driver
 * treats it.
 */
export function inProcessRun(
  dispatcher: Dispatcher,
  hookName: string,
  event: unknown,
  startTime: number,
  start: number,
  result: unknown,
  error: unknown,
): ObservedHookRun {
  const failed =
    error !== undefined ||
    (result !== dispatcher.proceed && !dispatcher.allowed.has(kindOf(result)));
  const decision = failed ? 'allow' : actionDecision(result);
  const reason = failed
    ? error instanceof Error
      ? error.message
      : error === undefined
        ? `returned ${describeReturned(result)}`
        : `threw ${describeReturned(error)}`
    : actionReason(result);
  const toolCallId = (event as { readonly toolCallId?: unknown } | null)?.toolCallId;
  const answer = failed ? undefined : answerText(result);
  return {
    event: dispatcher.label,
    hook: hookName,
    kind: 'in-process',
    decision,
    status: failed ? 'error' : decision === 'deny' ? 'blocked' : 'ok',
    ...(reason === undefined ? {} : { reason }),
    startTime,
    durationMs: Math.round((performance.now() - start) * 1000) / 1000,
    timedOut: false,
    failedClosed: false,
    ...(typeof toolCallId === 'string' ? { toolCallId } : {}),
    ...(answer === undefined ? {} : { answer }),
  };
}
