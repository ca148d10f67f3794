/**
 * The `http` hook kind (Claude Code's `http` hooks have this shape, so its dialect reads them
 * through this kind's `parse` and `run` too): the payload POSTed as JSON to `url`, the response
 * body read as a command hook's stdout JSON (see `http-hook-runner.ts`). It keeps nothing per
 * session: `run` uses the runner a host put in `request.kinds` (tests give one with their own
 * environment or `fetch`), or one reading `process.env` through the global `fetch`, created on
 * the first run (the runner's code loads only then).
 */
import { z } from 'zod';
import { lazy } from '../../wire/lazy.ts';
import type { HookConfigBase, HookKind, HookKindRunner } from '../hook-kind.ts';
import { commonConfigFields } from '../hook-kind.ts';
import { interpretExecution } from '../hook-run.ts';
import { commonHookFields } from '../common-hook-fields.ts';
import { defaultHookName } from '../default-hook-name.ts';

/** One `type: "http"` hook: the payload POSTed as JSON to `url`; the body answers. */
export interface HttpHookConfig extends HookConfigBase {
  readonly type: 'http';
  readonly url: string;
  /** Request headers; values may name `$VAR` / `${VAR}` of `allowedEnvVars`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The environment variables `headers` may expand; any other reference expands to "". */
  readonly allowedEnvVars: readonly string[];
}

/** The runner of http hooks (see `createHttpHookRunner`). */
export type HttpHookRunner = HookKindRunner<HttpHookConfig>;

/** One http hook: the event's payload POSTed as JSON to a URL. */
export const httpHookSchema = lazy(() =>
  z
    .strictObject({
      type: z.literal('http').meta({
        description:
          "POSTs the event payload as JSON to url; a 2xx body is read as a command hook's stdout JSON (empty: no opinion). Non-2xx statuses, redirects (never followed), connection errors and the deadline are a failed hook.",
      }),
      url: z
        .string()
        .regex(/^https?:\/\/[^\s/?#]+\S*$/)
        .meta({ description: 'The http:// or https:// URL to POST to.' }),
      headers: z.record(z.string(), z.string()).optional().meta({
        description:
          'Request headers. Values may reference $VAR or ${VAR}, expanded only for variables listed in allowedEnvVars (any other reference expands to "").',
      }),
      allowedEnvVars: z
        .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/))
        .optional()
        .meta({
          description: 'The environment variables header values may expand.',
        }),
      ...commonHookFields('the url (first 40 characters)'),
    })
    .meta({ id: 'SettingsHttpHook', description: 'An http hook.' }),
);

let defaultRunner: Promise<HttpHookRunner> | undefined;

export const httpKind: HookKind<HttpHookConfig, HttpHookRunner> = {
  type: 'http',
  // Built on first read: a run that validates no settings file builds no schema.
  get schema() {
    return httpHookSchema();
  },
  parse(entry, common) {
    const url = typeof entry['url'] === 'string' ? entry['url'] : '';
    const headers = entry['headers'];
    const allowed = entry['allowedEnvVars'];
    return {
      type: 'http',
      name: common.name ?? defaultHookName(url),
      url,
      headers:
        typeof headers === 'object' && headers !== null && !Array.isArray(headers)
          ? Object.fromEntries(
              Object.entries(headers).filter(
                (pair): pair is [string, string] => typeof pair[1] === 'string',
              ),
            )
          : {},
      allowedEnvVars: Array.isArray(allowed)
        ? allowed.filter((name): name is string => typeof name === 'string')
        : [],
      ...commonConfigFields(common),
    };
  },
  target: (hook) => hook.url,
  async run(hook, request) {
    const runner =
      request.kinds?.get(httpKind) ??
      (await (defaultRunner ??= import('./http-hook-runner.ts').then((module) =>
        module.createHttpHookRunner(),
      )));
    return interpretExecution(request, hook, hook.url, await runner.run(hook, request));
  },
};
