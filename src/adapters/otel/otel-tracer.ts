/**
 * The OpenTelemetry adapter of the loop's tracer seam: wraps an `@opentelemetry/api` tracer as a
 * `LoopTracer`. This module (reached through `hookwire/otel` only) is the one place the engine
 * imports `@opentelemetry/api`, an optional peer dependency: `hookwire` itself never loads it.
 */
import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { LoopSpan, LoopSpanOptions, LoopTracer, SpanAttributes } from '../../loop/index.ts';

/** The instrumentation scope hookwire's spans are recorded under. */
export const OTEL_SCOPE_NAME = 'hookwire';

function clean(attributes: SpanAttributes): Attributes {
  const result: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) result[key] = value;
  }
  return result;
}

class OtelSpan implements LoopSpan {
  readonly span: Span;

  constructor(span: Span) {
    this.span = span;
  }

  setAttributes(attributes: SpanAttributes): void {
    if (this.span.isRecording()) this.span.setAttributes(clean(attributes));
  }

  setError(type: string, message: string): void {
    if (!this.span.isRecording()) return;
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  end(endTime?: number): void {
    this.span.end(endTime);
  }
}

/**
 * A `LoopTracer` over an OpenTelemetry tracer — by default the global provider's tracer for the
 * `hookwire` scope (a proxy, so a provider registered later is used from then on; with none
 * registered, spans are non-recording and cost next to nothing). Each span nests under the span
 * the loop names as its parent; the session span, which has none, nests under the active context
 * (a span of the application's around `openSession`, say).
 *
 * ```ts
 * import { otelTracer } from 'hookwire/otel';
 * const agent = createAgent({ model, cwd, tracer: otelTracer() });
 * ```
 */
export function otelTracer(tracer: Tracer = trace.getTracer(OTEL_SCOPE_NAME)): LoopTracer {
  return {
    startSpan(name: string, options: LoopSpanOptions = {}): LoopSpan {
      const parent = options.parent;
      const parentContext =
        parent instanceof OtelSpan
          ? trace.setSpan(context.active(), parent.span)
          : context.active();
      const span = tracer.startSpan(
        name,
        {
          kind: options.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          ...(options.startTime === undefined ? {} : { startTime: options.startTime }),
          ...(options.attributes === undefined ? {} : { attributes: clean(options.attributes) }),
        },
        parentContext,
      );
      return new OtelSpan(span);
    },
  };
}
