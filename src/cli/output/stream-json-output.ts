import { writeStdout } from './stdout.ts';
import { jsonValueDepthExceeds } from '../../wire/index.ts';
import { toResultObject } from '../../loop/result-object.ts';
import type { RunOutput } from './run-output.ts';

// Errors carry no enumerable fields: print their name and message instead of `{}`.
function replaceErrors(_key: string, field: unknown): unknown {
  return field instanceof Error ? { name: field.name, message: field.message } : field;
}

/** Deeper than this, a line is replaced by a notice: `JSON.stringify` would overflow the stack. */
const MAX_PRINTED_DEPTH = 1000;

function writeLine(value: { readonly type: string }): void {
  const line = jsonValueDepthExceeds(value, MAX_PRINTED_DEPTH)
    ? {
        type: value.type,
        unprintable: `this ${value.type} event nests deeper than ${MAX_PRINTED_DEPTH} levels and is not printed`,
      }
    : value;
  writeStdout(JSON.stringify(line, replaceErrors) + '\n');
}

/**
 * `--output-format stream-json`: one JSON object per line — every run event as the loop reports
 * it (`session`, `turn-start`/`turn-end`, `step-start`, the deltas, `model-response`,
 * `tool-call`, `tool-result`, `hook`, `hook-report`), every command hook run as
 * `{type: 'hook-run', …HookRunRecord}`, and last the `ResultObject` with `type: 'result'`. The
 * loop's own `final` event is not printed: the result line replaces it, after SessionEnd ran.
 */
export function streamJsonOutput(): RunOutput {
  return {
    event(event) {
      if (event.type !== 'final') writeLine(event);
    },
    hookRun(record) {
      writeLine({ type: 'hook-run', ...record });
    },
    finish(result, records) {
      writeLine({ type: 'result', ...toResultObject(result, records) });
    },
  };
}
