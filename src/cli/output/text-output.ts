import { writeStdout } from './stdout.ts';
import { writeEnding, writeReport } from './stderr-reports.ts';
import type { RunOutput } from './run-output.ts';

/**
 * `--output-format text`: the final answer on stdout (followed by a newline; nothing when there
 * is none); hook messages, warnings and how a non-completed run ended on stderr.
 */
export function textOutput(): RunOutput {
  return {
    event(event) {
      if (event.type === 'hook-report') writeReport(event.report);
    },
    hookRun() {},
    finish(result) {
      if (result.result !== '') {
        writeStdout(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
      }
      writeEnding(result);
    },
  };
}
