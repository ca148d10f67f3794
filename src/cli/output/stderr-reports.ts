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
