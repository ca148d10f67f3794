/**
 * The model calls and tool calls of an AI SDK call, in the session's transcript (`model-call` and
 * `tool-call` records, as `hookwire run` writes them), so that `hookwire trace` and `hookwire
 * hooks stats` see an embedded session's steps and place each hook run in its step. Recorded
 * through the AI SDK's own call callbacks (`onLanguageModelCallStart/End`,
 * `onToolExecutionStart/End`), merged with the caller's, and only when the session writes a
 * transcript. The records hold what the loop's hold (names, status, durations, usage); the
 * arguments, results and text are in the transcript's `message` records already.
 */
import type { FinishReason } from '../../content/index.ts';
import type { TranscriptRecord } from '../../loop/transcript.ts';
import type { RunScope } from '../embedding/run-scope.ts';

/** What the recorders need of the embedded session. */
export interface StepRecordSink {
  readonly recording: boolean;
  /** The turn in progress. */
  readonly currentTurn: number;
  record(record: TranscriptRecord): void;
}

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'max_tokens',
  'tool-calls': 'tool_calls',
  'content-filter': 'safety',
  error: 'error',
  other: 'other',
};

type Callback = ((event: never) => unknown) | undefined;

/** Calls the caller's callback, then ours (the caller's may be absent). */
function merged<E>(own: Callback, recorder: (event: E) => void): (event: E) => Promise<void> {
  return async (event: E) => {
    await (own as ((value: E) => unknown) | undefined)?.(event);
    recorder(event);
  };
}

interface ModelCallEndEvent {
  readonly provider?: string;
  readonly modelId?: string;
  readonly finishReason?: string;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number };
}

interface ToolExecutionEvent {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string };
  readonly toolOutput?: { readonly type: string; readonly error?: unknown };
}

function shownError(error: unknown): string {
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return 'the tool failed';
  }
}

/** The caller's call options with the step recorders merged in (unchanged without a transcript). */
export function withStepRecords<T extends object>(
  sink: StepRecordSink,
  scope: RunScope,
  options: T,
): T {
  if (!sink.recording) return options;
  const own = options as Record<string, Callback>;
  const modelStarts: number[] = [];
  const toolStarts = new Map<string, number>();
  return {
    ...options,
    onLanguageModelCallStart: merged(own['onLanguageModelCallStart'], () => {
      modelStarts.push(Date.now());
    }),
    onLanguageModelCallEnd: merged(own['onLanguageModelCallEnd'], (event: ModelCallEndEvent) => {
      const start = modelStarts.shift() ?? Date.now();
      const finishReason =
        event.finishReason === undefined ? undefined : FINISH_REASONS[event.finishReason];
      sink.record({
        type: 'model-call',
        turn: sink.currentTurn,
        // The wrapped model counted this call (the hooks' model-call index).
        modelCall: scope.modelCalls,
        ...(event.provider === undefined ? {} : { provider: event.provider }),
        ...(event.modelId === undefined ? {} : { model: event.modelId }),
        status: 'answered',
        ...(finishReason === undefined ? {} : { finishReason }),
        ...(event.usage === undefined
          ? {}
          : {
              usage: {
                ...(event.usage.inputTokens === undefined
                  ? {}
                  : { promptTokens: event.usage.inputTokens }),
                ...(event.usage.outputTokens === undefined
                  ? {}
                  : { completionTokens: event.usage.outputTokens }),
              },
            }),
        durationMs: Date.now() - start,
        time: new Date(start).toISOString(),
      });
    }),
    onToolExecutionStart: merged(own['onToolExecutionStart'], (event: ToolExecutionEvent) => {
      toolStarts.set(event.toolCall.toolCallId, Date.now());
    }),
    onToolExecutionEnd: merged(own['onToolExecutionEnd'], (event: ToolExecutionEvent) => {
      const id = event.toolCall.toolCallId;
      const start = toolStarts.get(id) ?? Date.now();
      toolStarts.delete(id);
      const failed = event.toolOutput?.type === 'tool-error';
      const error = event.toolOutput?.error;
      sink.record({
        type: 'tool-call',
        turn: sink.currentTurn,
        modelCall: scope.modelCalls,
        toolCallId: id,
        toolName: event.toolCall.toolName,
        status: failed ? 'error' : 'ok',
        ...(failed ? { error: error instanceof Error ? error.message : shownError(error) } : {}),
        durationMs: Date.now() - start,
        time: new Date(start).toISOString(),
      });
    }),
  };
}
