import type { HookRunRecord, HookRunVerdict } from '../../hook-kinds/group/index.ts';
import type { RunEvent, RunResult } from '../../loop/index.ts';
import type { RunRecords } from '../../loop/result-object.ts';

/** The `--output-format` values of `hookwire run`. */
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * Where a run's progress goes. `event` sees every run event in order; `hookRun` every command
 * hook run as it settles (SessionStart's before the run's first event, SessionEnd's after its
 * last); `finish` the outcome once the session is closed — always last — with what the
 * session recorded beside it (`RunRecords`: the json formats print them in the result).
 */
export interface RunOutput {
  event(event: RunEvent): void;
  hookRun(record: HookRunRecord, verdict: HookRunVerdict): void;
  finish(result: RunResult, records?: RunRecords): void;
}
