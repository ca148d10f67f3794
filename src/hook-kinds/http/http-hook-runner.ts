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
import { postJson } from './post-json.ts';
import { formatDuration } from '../duration.ts';
import type { HookAnswer, HookExecution, HookRunContext } from '../hook-kind.ts';

export interface HttpHookRunnerOptions {
  /** Where `$VAR` references are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The longest body read, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
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

/** Creates the runner of `type: "http"` hooks. */
export function createHttpHookRunner(options: HttpHookRunnerOptions = {}): HttpHookRunner {
  const env = options.env ?? process.env;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;

  return {
    async run(hook: HttpHookConfig, context: HookRunContext): Promise<HookExecution> {
      const started = performance.now();
      const done = (answer: HookAnswer): HookExecution => ({
        answer,
        durationMs: performance.now() - started,
      });
      const fail = (status: 'warning' | 'timeout' | 'error', what: string) =>
        done({ kind: 'failure', status, what });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(hook.headers))
        headers[name] = expandHeaderValue(value, hook.allowedEnvVars, env);
      let url: URL;
      try {
        url = new URL(hook.url);
      } catch {
        return fail('error', `could not reach ${hook.url}: not a URL`);
      }
      const result = await postJson({
        url,
        body: context.input,
        headers,
        timeoutMs: hook.timeoutMs,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        maxBodyBytes: maxBody,
        readBody: (status) => status >= 200 && status <= 299,
      });
      switch (result.kind) {
        case 'timeout':
          return fail('timeout', `timed out after ${formatDuration(hook.timeoutMs)}`);
        case 'aborted':
          return fail('error', 'was cancelled before it answered');
        case 'error':
          return fail('error', `could not reach ${hook.url}: ${result.message}`);
        case 'too-long':
          return fail('warning', `answered a body longer than ${maxBody} bytes`);
        case 'response':
          if (result.status < 200 || result.status > 299)
            return fail(
              'warning',
              result.status >= 300 && result.status < 400
                ? `answered HTTP ${result.status} (a redirect${result.location === undefined ? '' : ` to ${result.location}`}; redirects are not followed)`
                : `answered HTTP ${result.status}${result.statusText === '' ? '' : ` ${result.statusText}`}`,
            );
          return done({ kind: 'stdout', text: result.text, jsonOnly: true });
      }
    },
  };
}
