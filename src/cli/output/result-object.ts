import type { RunResult } from '../../loop/index.ts';

/**
 * The JSON form of a run's outcome, printed by `--output-format json` (and, with
 * `type: 'result'`, as the last line of `stream-json`): `sessionId`, `status`, `result`,
 * `modelCalls`, `transcriptPath`, then, when present, `reason` (why the run did not complete),
 * `error` (the failure's message) and `unprocessedPrompts`.
 */
export interface ResultObject {
  readonly sessionId: string;
  readonly status: RunResult['status'];
  readonly result: string;
  readonly modelCalls: number;
  readonly transcriptPath: string;
  readonly reason?: string;
  readonly error?: string;
  readonly unprocessedPrompts?: readonly string[];
}

/** The `ResultObject` of a run result (errors become their message). */
export function toResultObject(result: RunResult): ResultObject {
  return {
    sessionId: result.sessionId,
    status: result.status,
    result: result.result,
    modelCalls: result.modelCalls,
    transcriptPath: result.transcriptPath,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    ...(result.error === undefined ? {} : { error: result.error.message }),
    ...(result.unprocessedPrompts === undefined
      ? {}
      : { unprocessedPrompts: result.unprocessedPrompts }),
  };
}
