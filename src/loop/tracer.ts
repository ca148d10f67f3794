/**
 * The loop's tracing seam: a tracer as small as the loop needs, so the core never imports
 * OpenTelemetry (an optional peer dependency). `otelTracer()` from `hookwire/otel` adapts an
 * OpenTelemetry tracer to it; tests and other backends may implement it directly. Without a
 * tracer (the default), or with one whose `enabled()` is false (OpenTelemetry with no provider),
 * the loop builds no span and no attribute: a `tracer === undefined` check per span site is the
 * whole cost. See docs/telemetry.md for the spans and their attributes.
 */

/** An attribute value, as OpenTelemetry takes them. */
export type SpanAttributeValue = string | number | boolean | readonly string[];

/** Span attributes; `undefined` values are left out. */
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue | undefined>>;

/** Options of `LoopTracer.startSpan`. */
export interface LoopSpanOptions {
  /** The span it nests under; none for the session span (the tracer's active context then). */
  readonly parent?: LoopSpan;
  /** `client` for model calls (a call to another service), `internal` otherwise. Default `internal`. */
  readonly kind?: 'internal' | 'client';
  /** Start time in milliseconds since the epoch. Default: now. */
  readonly startTime?: number;
  readonly attributes?: SpanAttributes;
}

/** A span being recorded. */
export interface LoopSpan {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed: `error.type` set to `type`, status ERROR with `message`. */
  setError(type: string, message: string): void;
  /** Ends the span, at `endTime` (milliseconds since the epoch) or now. */
  end(endTime?: number): void;
}

/** What the loop reports spans to (`AgentOptions.tracer`). */
export interface LoopTracer {
  startSpan(name: string, options?: LoopSpanOptions): LoopSpan;
  /**
   * False when no span would be recorded anywhere (OpenTelemetry's API with no tracer provider
   * registered): the loop then builds no span and no attribute, exactly as with no tracer. Asked
   * once when a session opens (its span) and once per run, never per span, so a provider
   * registered later is used from the next run on. Absent: always true.
   */
  enabled?(): boolean;
}

/** The tracer to use now: `tracer`, unless it says it records nowhere. */
export function activeTracer(tracer: LoopTracer | undefined): LoopTracer | undefined {
  return tracer === undefined || tracer.enabled?.() === false ? undefined : tracer;
}
