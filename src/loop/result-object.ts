import type { McpServerExit } from '../mcp/mcp-connections.ts';
import type { RunResult } from './run-events.ts';

/**
 * What the run's session saw beside the loop's result, for the result's records: MCP servers
 * that exited mid-session, and fail-closed hooks that kept failing.
 */
export interface RunRecords {
  readonly mcpServerExits?: readonly McpServerExit[];
  readonly hookFailures?: readonly HookFailureSummary[];
}

/** A hook that failed closed during the run: how often, and the last failure. */
export interface HookFailureSummary {
  readonly hook: string;
  readonly event: string;
  readonly command: string;
  /** Runs of the hook that failed (each denied what it guards). */
  readonly failures: number;
  /** Runs of the hook in all. */
  readonly runs: number;
  /** The last failure's message. */
  readonly last: string;
}

/**
 * The JSON form of a run's outcome, printed by `--output-format json` (and, with
 * `type: 'result'`, as the last line of `stream-json`): `sessionId`, `status`, `result`,
 * `modelCalls`, `transcriptPath`, then, when present, `reason` (why the run did not complete),
 * `error` (the failure's message) and `unprocessedPrompts`, then the session's `RunRecords`
 * when there are any: `mcpServerExits` (servers that exited mid-session and what became of
 * them) and `hookFailures` (fail-closed hooks that failed, with their counts).
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
  readonly mcpServerExits?: readonly McpServerExit[];
  readonly hookFailures?: readonly HookFailureSummary[];
}

/** The `ResultObject` of a run result (errors become their message). */
export function toResultObject(result: RunResult, records: RunRecords = {}): ResultObject {
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
    ...(records.mcpServerExits === undefined || records.mcpServerExits.length === 0
      ? {}
      : { mcpServerExits: records.mcpServerExits }),
    ...(records.hookFailures === undefined || records.hookFailures.length === 0
      ? {}
      : { hookFailures: records.hookFailures }),
  };
}
