import { writeStdout } from './stdout.ts';
import { toResultObject } from '../../loop/result-object.ts';
import { writeReport } from './stderr-reports.ts';
import type { RunOutput } from './run-output.ts';

/**
 * `--output-format json`: one `ResultObject` on stdout, written once the session is closed;
 * hook messages and warnings on stderr.
 */
export function jsonOutput(): RunOutput {
  return {
    event(event) {
      if (event.type === 'hook-report') writeReport(event.report);
    },
    hookRun() {},
    finish(result, records) {
      writeStdout(JSON.stringify(toResultObject(result, records)) + '\n');
    },
  };
}
