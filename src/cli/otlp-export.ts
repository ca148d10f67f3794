/**
 * `hookwire run --otel`: the run's spans exported over OTLP/HTTP (JSON) with the OpenTelemetry
 * SDK, configured by the standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`,
 * `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, …, which the exporter and resource detector
 * read themselves). The SDK is imported only when export is on, so a run without it never loads
 * OpenTelemetry.
 */
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { LoopTracer } from '../loop/index.ts';

/** The environment variables that decide whether spans are exported. */
export interface OtlpEnvironment {
  readonly OTEL_SDK_DISABLED?: string | undefined;
  readonly OTEL_TRACES_EXPORTER?: string | undefined;
  readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  readonly OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
}

const set = (value: string | undefined): boolean => value !== undefined && value.trim() !== '';

/**
 * Whether a run exports its spans: `--otel` (or `--no-otel`) decides when given; otherwise an
 * OTLP endpoint variable turns export on, unless `OTEL_TRACES_EXPORTER` is `none`.
 * `OTEL_SDK_DISABLED=true` turns it off whatever else is set, as the specification says.
 */
export function otlpExportRequested(flag: boolean | undefined, env: OtlpEnvironment): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (flag !== undefined) return flag;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim());
  if (exporters.includes('none')) return false;
  return set(env.OTEL_EXPORTER_OTLP_ENDPOINT) || set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Where the exporter sends spans, for messages (the exporter resolves it the same way). */
export function otlpTracesEndpoint(env: OtlpEnvironment): string {
  if (set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT))
    return (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '').trim();
  if (set(env.OTEL_EXPORTER_OTLP_ENDPOINT))
    return `${(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim().replace(/\/+$/, '')}/v1/traces`;
  return 'http://localhost:4318/v1/traces';
}

/** A running export: the tracer for the run, and its shutdown (flushes what is left). */
export interface OtlpExport {
  readonly tracer: LoopTracer;
  /** Flushes and stops; resolves with a one-line warning when some spans could not be sent. */
  shutdown(): Promise<string | undefined>;
}

/** Starts the OTLP/HTTP export: a tracer provider of its own (the global one is left alone). */
export async function startOtlpExport(version: string, env: OtlpEnvironment): Promise<OtlpExport> {
  const [sdk, { OTLPTraceExporter }, resources, { ExportResultCode }, { otelTracer }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/core'),
      import('../adapters/otel/otel-tracer.ts'),
    ]);
  const exporter = new OTLPTraceExporter();
  let failure: string | undefined;
  // The exporter reports a failed export only to its callback: keep the first reason for the
  // one warning printed at the end, and never let it fail the run.
  const reporting: SpanExporter = {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS)
          failure ??= result.error?.message ?? 'the export failed';
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'hookwire', 'service.version': version })
    .merge(
      resources.detectResources({
        detectors: [resources.serviceNameEnvDetector, resources.resourceAttributesEnvDetector],
      }),
    );
  const provider = new sdk.TracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: reporting })],
  });
  return {
    tracer: otelTracer(provider.getTracer('hookwire', version)),
    async shutdown() {
      try {
        await provider.shutdown();
      } catch (error) {
        failure ??= error instanceof Error ? error.message : String(error);
      }
      return failure === undefined
        ? undefined
        : `hookwire: some spans could not be exported to ${otlpTracesEndpoint(env)}: ${failure}`;
    },
  };
}
