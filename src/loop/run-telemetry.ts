/**
 * What the loop records of a run besides its conversation: a `model-call`, `tool-call` and
 * `hook-run` transcript record for each model call, tool call and hook run (what `hookwire hooks
 * stats` and `hookwire trace` read), and — with a tracer — the spans of docs/telemetry.md: the
 * session, each turn (`invoke_agent`), each model call (`chat {model}`), each tool call
 * (`execute_tool {tool}`) and each hook run (`hookwire.hook {event}`), nested under what it
 * guarded. Attribute names follow the OpenTelemetry GenAI conventions where they have one and
 * the `hookwire.*` proposal of docs/telemetry.md where they do not.
 */
import type { FinishReason, LanguageModel, Usage } from '../content/index.ts';
import type { ObservedHookRun } from '../events/observed-hook-run.ts';
import type { RunStatus } from './run-events.ts';
import type { LoopSpan, LoopTracer, SpanAttributes } from './tracer.ts';

/** `gen_ai.provider.name` for a `LanguageModel.provider` (the well-known values where one fits). */
export function genAiProviderName(provider: string): string {
  switch (provider) {
    case 'openai':
    case 'openai-responses':
    case 'openai-compatible':
      return 'openai';
    case 'google':
      return 'gcp.gemini';
    default:
      return provider;
  }
}

/** The attributes of a hook-run span (docs/telemetry.md, "hookwire.hook.*"). */
export function hookRunAttributes(run: ObservedHookRun): SpanAttributes {
  return {
    'hookwire.hook.event': run.event,
    'hookwire.hook.name': run.hook,
    'hookwire.hook.kind': run.kind,
    'hookwire.hook.dialect': run.dialect,
    'hookwire.hook.matcher': run.matcher,
    'hookwire.hook.decision': run.decision,
    'hookwire.hook.status': run.status,
    'hookwire.hook.reason': run.reason,
    'hookwire.hook.exit_code': typeof run.exitCode === 'number' ? run.exitCode : undefined,
    'hookwire.hook.signal': typeof run.signal === 'string' ? run.signal : undefined,
    'hookwire.hook.timed_out': run.timedOut,
    'hookwire.hook.failed_closed': run.failedClosed,
    'hookwire.hook.duration_ms': run.durationMs,
    'gen_ai.tool.call.id': run.toolCallId,
  };
}

/** The statuses of a hook run that mean it failed to answer (the span's status is then ERROR). */
const FAILED: ReadonlySet<string> = new Set(['warning', 'timeout', 'error', 'failed-closed']);

/** Records one hook run as a span under `parent`, from its start to its end. */
export function traceHookRun(tracer: LoopTracer, parent: LoopSpan, run: ObservedHookRun): void {
  const span = tracer.startSpan(`hookwire.hook ${run.event}`, {
    parent,
    startTime: run.startTime,
    attributes: hookRunAttributes(run),
  });
  if (FAILED.has(run.status))
    span.setError(run.timedOut ? 'timeout' : run.status, run.reason ?? run.status);
  span.end(run.startTime + run.durationMs);
}

/** Opens the session span (`hookwire.session`). */
export function startSessionSpan(
  tracer: LoopTracer,
  sessionId: string,
  source: 'startup' | 'resume',
  agentName: string | undefined,
): LoopSpan {
  return tracer.startSpan('hookwire.session', {
    attributes: {
      'gen_ai.conversation.id': sessionId,
      'gen_ai.agent.name': agentName,
      'hookwire.session.id': sessionId,
      'hookwire.session.source': source,
    },
  });
}

/** Opens a turn's span: an agent invocation (`invoke_agent {agent}`). */
export function startTurnSpan(
  tracer: LoopTracer,
  parent: LoopSpan | undefined,
  sessionId: string,
  agentName: string | undefined,
  turn: number,
): LoopSpan {
  const name = agentName ?? 'hookwire';
  return tracer.startSpan(`invoke_agent ${name}`, {
    ...(parent === undefined ? {} : { parent }),
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': name,
      'gen_ai.conversation.id': sessionId,
      'hookwire.turn.number': turn,
    },
  });
}

/** Ends a turn's span with its status (ERROR when it failed). */
export function endTurnSpan(span: LoopSpan, status: RunStatus, reason: string | undefined): void {
  span.setAttributes({ 'hookwire.turn.status': status, 'hookwire.turn.reason': reason });
  if (status === 'failed') span.setError('turn_failed', reason ?? 'the turn failed');
  span.end();
}

/** Opens a model call's span (`chat {model}`, kind client). */
export function startModelCallSpan(
  tracer: LoopTracer,
  parent: LoopSpan | undefined,
  model: LanguageModel,
  sessionId: string,
  modelCall: number,
): LoopSpan {
  return tracer.startSpan(`chat ${model.modelId}`, {
    ...(parent === undefined ? {} : { parent }),
    kind: 'client',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': genAiProviderName(model.provider),
      'gen_ai.request.model': model.modelId,
      'gen_ai.conversation.id': sessionId,
      'hookwire.model_call.number': modelCall,
    },
  });
}

/** How a model call ended, as recorded and traced. */
export interface ModelCallEnd {
  /**
   * `answered` (an answer accepted), `synthetic` (a BeforeModel hook answered), `retried` (a
   * model-turn hook rejected the answer), `denied` / `stopped` (a hook ended the step), `failed`
   * (the provider failed, or the answer did), `cancelled`.
   */
  readonly status:
    'answered' | 'synthetic' | 'retried' | 'denied' | 'stopped' | 'failed' | 'cancelled';
  /** The model that was called (a model-selection hook may have picked another). */
  readonly model: LanguageModel | undefined;
  readonly finishReason?: FinishReason | undefined;
  readonly usage?: Usage | undefined;
  readonly responseId?: string | undefined;
  readonly reason?: string | undefined;
}

/** Ends a model call's span with the GenAI response attributes. */
export function endModelCallSpan(span: LoopSpan, end: ModelCallEnd): void {
  span.setAttributes({
    'gen_ai.provider.name':
      end.model === undefined ? undefined : genAiProviderName(end.model.provider),
    'gen_ai.response.model': end.model?.modelId,
    'gen_ai.response.id': end.responseId,
    'gen_ai.response.finish_reasons':
      end.finishReason === undefined ? undefined : [end.finishReason],
    'gen_ai.usage.input_tokens': end.usage?.promptTokens,
    'gen_ai.usage.output_tokens': end.usage?.completionTokens,
    'hookwire.model_call.status': end.status,
    'hookwire.model_call.synthetic': end.status === 'synthetic',
    'hookwire.model_call.reason': end.reason,
  });
  if (end.status === 'failed')
    span.setError('model_call_failed', end.reason ?? 'the model call failed');
  span.end();
}

/** Opens a tool call's span (`execute_tool {tool}`). */
export function startToolCallSpan(
  tracer: LoopTracer,
  parent: LoopSpan | undefined,
  toolName: string,
  toolCallId: string,
): LoopSpan {
  return tracer.startSpan(`execute_tool ${toolName}`, {
    ...(parent === undefined ? {} : { parent }),
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': toolName,
      'gen_ai.tool.call.id': toolCallId,
      'gen_ai.tool.type': 'function',
    },
  });
}

/** How a tool call ended: `ok`, `error` (the tool failed) or `skipped` (a hook or the loop did not run it). */
export type ToolCallStatus = 'ok' | 'error' | 'skipped';

/** Ends a tool call's span (ERROR when the tool failed). */
export function endToolCallSpan(
  span: LoopSpan,
  status: ToolCallStatus,
  error: string | undefined,
): void {
  span.setAttributes({ 'hookwire.tool_call.status': status, 'hookwire.tool_call.reason': error });
  if (status === 'error') span.setError('tool_error', error ?? 'the tool failed');
  span.end();
}
