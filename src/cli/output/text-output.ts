import { writeStdout } from './stdout.ts';
import { decisionLine, writeEnding, writeReport } from './stderr-reports.ts';
import type { RunOutput } from './run-output.ts';

/**
 * `--output-format text`: the final answer on stdout (followed by a newline; nothing when there
 * is none); hook messages, warnings and how a non-completed run ended on stderr, and with
 * `decisions` (the default; `--quiet` turns it off) one line per hook that denied, stopped the
 * run, failed closed or kept a turn going (see `decisionLine`).
 */
export function textOutput(options: { readonly decisions?: boolean } = {}): RunOutput {
  const decisions = options.decisions !== false;
  return {
    event(event) {
      if (event.type === 'hook-report') writeReport(event.report);
    },
    hookRun(record, verdict) {
      if (!decisions) return;
      const line = decisionLine(record, verdict);
      if (line !== undefined) process.stderr.write(`${line}\n`);
    },
    finish(result) {
      if (result.result !== '') {
        writeStdout(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
      }
      writeEnding(result);
    },
  };
}
