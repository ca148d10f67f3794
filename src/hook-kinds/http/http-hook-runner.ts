/**
 * `type: "http"` hooks (Claude Code's shape): the event's payload — exactly what a command hook
 * reads on stdin — is POSTed as JSON to `url`, and the response body answers as a command
 * hook's stdout JSON does.
 *
 * - A 2xx with an empty body is no opinion; a 2xx with a JSON object is decoded and interpreted
 *   as hook output; a 2xx with any other body, a non-2xx status (redirects included: they are
 *   never followed), a connection error and the deadline (the hook's `timeout`) are a failed
 *   hook: a warning, or a denial when the hook is `failClosed`.
 * - `headers` values expand `$VAR` and `${VAR}` from the environment only for the variables
 *   listed in `allowedEnvVars`; any other reference expands to the empty string, so a settings
 *   file cannot exfiltrate a variable it was not granted.
 * - The body read is capped (1 MiB by default); a longer body is a failed hook.
 */
import type { HttpHookConfig, HttpHookRunner } from './http-kind.ts';
import { formatDuration } from '../duration.ts';
import type { HookAnswer, HookExecution, HookRunContext } from '../hook-kind.ts';

export interface HttpHookRunnerOptions {
  /** Where `$VAR` references are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The longest body read, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** The `fetch` used. Default the global one. */
  readonly fetch?: typeof fetch;
}

const DEFAULT_MAX_BODY = 1024 * 1024;
const REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/**
 * A header value with `$VAR` / `${VAR}` replaced by the variable's value when `allowed` lists
 * it, and by the empty string otherwise (or when it is unset).
 */
export function expandHeaderValue(
  value: string,
  allowed: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string {
  return value.replace(
    REFERENCE,
    (_match, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare ?? '';
      return allowed.includes(name) ? (env[name] ?? '') : '';
    },
  );
}

async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ text: string } | { tooLong: true }> {
  const body = response.body;
  if (body === null) return { text: '' };
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await body.cancel().catch(() => undefined);
      return { tooLong: true };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const detail = cause instanceof Error ? cause.message : undefined;
  return [error.message, typeof code === 'string' ? code : undefined, detail]
    .filter((part, index, parts) => part !== undefined && parts.indexOf(part) === index)
    .join(': ');
}

/** Creates the runner of `type: "http"` hooks. */
export function createHttpHookRunner(options: HttpHookRunnerOptions = {}): HttpHookRunner {
  const env = options.env ?? process.env;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const doFetch = options.fetch ?? fetch;

  return {
    async run(hook: HttpHookConfig, context: HookRunContext): Promise<HookExecution> {
      const started = performance.now();
      const done = (answer: HookAnswer): HookExecution => ({
        answer,
        durationMs: performance.now() - started,
      });
      const fail = (status: 'warning' | 'timeout' | 'error', what: string) =>
        done({ kind: 'failure', status, what });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (const [name, value] of Object.entries(hook.headers))
        headers[name] = expandHeaderValue(value, hook.allowedEnvVars, env);
      const deadline = AbortSignal.timeout(hook.timeoutMs);
      const signal =
        context.signal === undefined ? deadline : AbortSignal.any([deadline, context.signal]);
      try {
        const response = await doFetch(hook.url, {
          method: 'POST',
          headers,
          body: context.input,
          redirect: 'manual',
          signal,
        });
        if (response.status < 200 || response.status > 299) {
          await response.body?.cancel().catch(() => undefined);
          const where = response.headers.get('location');
          return fail(
            'warning',
            response.status >= 300 && response.status < 400
              ? `answered HTTP ${response.status} (a redirect${where === null ? '' : ` to ${where}`}; redirects are not followed)`
              : `answered HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`,
          );
        }
        const body = await readCapped(response, maxBody);
        if ('tooLong' in body)
          return fail('warning', `answered a body longer than ${maxBody} bytes`);
        return done({ kind: 'stdout', text: body.text, jsonOnly: true });
      } catch (error) {
        if (deadline.aborted)
          return fail('timeout', `timed out after ${formatDuration(hook.timeoutMs)}`);
        if (context.signal?.aborted === true)
          return fail('error', 'was cancelled before it answered');
        return fail('error', `could not reach ${hook.url}: ${describeError(error)}`);
      }
    },
  };
}
