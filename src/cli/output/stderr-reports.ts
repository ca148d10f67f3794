import type { HookReport } from '../../hooks/index.ts';
import type { RunResult } from '../../loop/index.ts';

/**
 * Prints a hook's message (`systemMessage`) or a warning on stderr, one line, prefixed with the
 * hook's name when known; warnings start with `warning:`.
 */
export function writeReport(report: HookReport): void {
  const source = report.hookName === undefined ? '' : `${report.hookName}: `;
  process.stderr.write(
    report.level === 'warning' ? `warning: ${source}${report.text}\n` : `${source}${report.text}\n`,
  );
}

/** Says on stderr how a run that did not complete ended, and why. Silent for `completed`. */
export function writeEnding(result: RunResult): void {
  if (result.status === 'completed') return;
  const why = result.reason ?? result.error?.message;
  process.stderr.write(
    `hookwire: the run ended ${result.status}${why === undefined ? '' : `: ${why}`}\n`,
  );
}
