/**
 * `hookwire/otel`: OpenTelemetry for hookwire's loop. Needs `@opentelemetry/api` (an optional
 * peer dependency); importing `hookwire` alone never loads it. Every export is public API.
 */
export { OTEL_SCOPE_NAME, otelTracer } from './adapters/otel/otel-tracer.ts';
