import { canonicalEventName } from '../../events/index.ts';
import type { HookRunRecord, HookRunVerdict } from '../../hook-kinds/group/index.ts';
import type { HookReport } from '../../hooks/index.ts';
import type { RunResult } from '../../loop/index.ts';

/** The longest message the text output prints whole, in characters. */
export const MAX_TEXT_MESSAGE_CHARACTERS = 4000;

/**
 * `text` when it is at most `MAX_TEXT_MESSAGE_CHARACTERS` long; else its start and a notice
 * saying how much was cut and how to see all of it.
 */
export function truncateForText(text: string): string {
  if (text.length <= MAX_TEXT_MESSAGE_CHARACTERS) return text;
  // Cut at a code point boundary, never inside a surrogate pair.
  let end = MAX_TEXT_MESSAGE_CHARACTERS;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}… [truncated: ${text.length - end} of ${text.length} characters not shown; --output-format stream-json prints every message whole]`;
}

/**
 * Prints a hook's message (`systemMessage`) or a warning on stderr, one line, prefixed with the
 * hook's name when known; warnings start with `warning:`. A message longer than
 * `MAX_TEXT_MESSAGE_CHARACTERS` is cut, with a notice (see `truncateForText`).
 */
export function writeReport(report: HookReport): void {
  const source = report.hookName === undefined ? '' : `${report.hookName}: `;
  const text = truncateForText(report.text);
  process.stderr.write(
    report.level === 'warning' ? `warning: ${source}${text}\n` : `${source}${text}\n`,
  );
}

/**
 * Says on stderr how a run that did not complete ended, and why (a long reason cut as
 * `truncateForText` does). Silent for `completed`.
 */
export function writeEnding(result: RunResult): void {
  if (result.status === 'completed') return;
  const why = result.reason ?? result.error?.message;
  process.stderr.write(
    `hookwire: the run ended ${result.status}${why === undefined ? '' : `: ${truncateForText(why)}`}\n`,
  );
}

/** The longest reason a decision line prints, in characters. */
const MAX_DECISION_REASON_CHARACTERS = 300;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_DECISION_REASON_CHARACTERS
    ? flat
    : `${flat.slice(0, MAX_DECISION_REASON_CHARACTERS)}…`;
}

/**
 * The one line the text output prints on stderr for a hook run that decided something the user
 * should see, with the event and the hook's name; `undefined` for the others (an allow, a
 * rewrite, added context; a failure that fails open is already a warning):
 *
 * - a failed-closed guard: `hookwire: PreToolUse hook "guard" failed closed (timed out after 5s): denied`;
 * - a Stop or SubagentStop block: `hookwire: Stop hook "tests" blocked the stop, to keep the
 *   agent working: REASON` (past `--max-stop-continuations` the loop's warning says the turn
 *   ends instead);
 * - a stop: `hookwire: PreToolUse hook "x" stopped the run: REASON`;
 * - any other denial: `hookwire: PreToolUse hook "guard" denied: REASON`.
 */
export function decisionLine(record: HookRunRecord, verdict: HookRunVerdict): string | undefined {
  const who = `hookwire: ${record.event} hook "${record.name}"`;
  const reason = verdict.reason === undefined ? '' : oneLine(verdict.reason);
  if (record.status === 'failed-closed')
    return `${who} failed closed${record.detail === undefined ? '' : ` (${oneLine(record.detail)})`}: ${verdict.decision === 'stop' ? 'the run stops' : 'denied'}`;
  if (verdict.decision === 'stop')
    return `${who} stopped the run${reason === '' ? '' : `: ${reason}`}`;
  if (verdict.decision !== 'deny') return undefined;
  const event = canonicalEventName(record.event);
  if (event === 'Stop' || event === 'SubagentStop')
    return `${who} blocked the stop, to keep the agent working${reason === '' ? '' : `: ${reason}`}`;
  return `${who} denied${reason === '' ? '' : `: ${reason}`}`;
}
