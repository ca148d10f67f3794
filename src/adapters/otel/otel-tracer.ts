/**
 * The OpenTelemetry adapter of the loop's tracer seam: wraps an `@opentelemetry/api` tracer as a
 * `LoopTracer`. This module (reached through `hookwire/otel` only) is the one place the engine
 * imports `@opentelemetry/api`, an optional peer dependency: `hookwire` itself never loads it.
 */
import {
  context,
  ProxyTracer,
  ProxyTracerProvider,
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
 * Whether spans of `tracer` go anywhere: false only for the API's proxy tracer while no provider
 * is registered (its spans are the no-op ones), which the loop then skips entirely. Any other
 * tracer, an SDK's included, counts as recording (its sampler decides per span).
 */
function recordsSomewhere(tracer: Tracer): () => boolean {
  if (!(tracer instanceof ProxyTracer)) return () => true;
  return () => {
    const provider = trace.getTracerProvider();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the API's own proxy, the one way to see that no provider is registered
    if (!(provider instanceof ProxyTracerProvider)) return true;
    return provider.getDelegateTracer(tracer.name, tracer.version, tracer.options) !== undefined;
  };
}

/**
 * A `LoopTracer` over an OpenTelemetry tracer — by default the global provider's tracer for the
 * `hookwire` scope (a proxy, so a provider registered later is used from the next run on; with
 * none registered the loop builds no span at all: `enabled()` is false). Each span nests under the span
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
    enabled: recordsSomewhere(tracer),
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
