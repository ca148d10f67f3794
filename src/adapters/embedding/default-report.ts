/**
 * Where an embedded session's hook warnings go when the app gives no `onReport`: one line each
 * on stderr, so a hook that crashes, times out or answers a wrong shape is never dropped without
 * a word. Hook messages (`systemMessage`) are for the app's user and stay with `onReport` and the
 * transcript.
 */
import type { HookReport } from '../../events/context.ts';

/** The longest warning printed whole, in characters. */
const MAX_LINE_CHARACTERS = 2000;

/** One report as one line: `hookwire: warning: NAME (EVENT): text`, newlines folded, bounded. */
export function reportLine(report: HookReport): string {
  // A command hook's name already says its event (`guard (PreToolUse)`).
  const name = report.hookName;
  const source =
    name === undefined
      ? ''
      : report.event === undefined || name.includes(`(${report.event})`)
        ? `${name}: `
        : `${name} (${report.event}): `;
  const text = report.text.replace(/\s*[\r\n]+\s*/g, ' ');
  const bounded =
    text.length > MAX_LINE_CHARACTERS
      ? `${text.slice(0, MAX_LINE_CHARACTERS)}… [${text.length - MAX_LINE_CHARACTERS} more characters; pass onReport to receive reports whole]`
      : text;
  return `hookwire: ${report.level === 'warning' ? 'warning: ' : ''}${source}${bounded}\n`;
}

/** The default `onReport`: warnings to stderr (see the module comment). */
export function reportToStderr(report: HookReport): void {
  if (report.level === 'warning') process.stderr.write(reportLine(report));
}
