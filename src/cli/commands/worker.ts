/**
 * `hookwire worker --restate-admin URL [--port P]`: serves the project's durable sessions (the
 * Restate virtual object `hookwire-session`) as a Restate deployment over HTTP/2, and registers
 * it with the Restate admin API (or, without `--restate-admin`, prints the registration command).
 *
 * The agent is built as `hookwire run` builds it: the model of `--model`/`--base-url`, the
 * built-in tools and the settings' MCP tools, the command hooks of every settings layer plus
 * `--settings` with the project's trust and dialects, the permission rules, the system prompt.
 * Several workers can serve one deployment URL (`--endpoint-url`, e.g. a load balancer in front
 * of them): a turn whose worker dies is retried by Restate through that URL on a live one.
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http2';
import { builtinTools } from '../../adapters/tools/index.ts';
import { ToolRegistry } from '../../loop/index.ts';
import { CliError } from '../cli-error.ts';
import { resolveModel } from '../model-spec.ts';
import { packageVersion } from '../package-version.ts';
import { agentPermissions, hookProcessOptions, prepareShellRules } from '../tool-policy.ts';
import {
  openCommandHookSession,
  printSettingsWarnings,
  projectDirOf,
  type SettingsCommandOptions,
} from '../settings-options.ts';
import { composeSystemPrompt, localDate } from '../system-prompt.ts';
import { parsePositive } from './run.ts';

/** Options of `hookwire worker`. */
export interface WorkerCommandOptions extends SettingsCommandOptions {
  readonly model: string;
  readonly baseUrl?: string;
  readonly restateAdmin?: string;
  readonly port?: string;
  /** The URL Restate reaches this worker (or the balancer in front of the workers) at. */
  readonly endpointUrl?: string;
  readonly maxModelCalls?: string;
  readonly maxStopContinuations?: string;
}

/** Registers `endpoint` with the admin API at `admin` (`force`: a re-registration replaces). */
export async function registerDeployment(admin: string, endpoint: string): Promise<void> {
  const response = await fetch(new URL('/deployments', admin), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri: endpoint, force: true }),
  });
  if (!response.ok)
    throw new CliError(
      `The Restate admin API at ${admin} refused to register ${endpoint}: HTTP ${response.status} ${await response.text()}`,
    );
}

export async function workerCommand(options: WorkerCommandOptions): Promise<number> {
  const port = options.port === undefined ? 9080 : Number(options.port);
  if (options.port !== undefined && !/^\d+$/.test(options.port.trim()))
    throw new CliError(`--port must be a port number (0: any free one), got "${options.port}"`);
  const maxModelCalls = parsePositive(options.maxModelCalls, '--max-model-calls');
  const projectDir = projectDirOf(options);
  const modelOptions = {
    invocationDir: process.cwd(),
    env: process.env,
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
  };
  const model = await resolveModel(options.model, modelOptions);
  const hookSession = await openCommandHookSession(options, {
    promptModel: () => Promise.resolve(model),
    resolveModel: (spec) => resolveModel(spec, modelOptions),
    confinement: (settings) => hookProcessOptions({}, settings, projectDir),
    mcp: {
      onWarning: (line) => {
        process.stderr.write(`${line}\n`);
      },
      clientInfo: { name: 'hookwire', version: packageVersion() },
    },
  });
  const { settings, runner, stack: hooks } = hookSession;
  printSettingsWarnings(settings);
  const permissions = agentPermissions({}, settings);
  prepareShellRules(permissions, settings);
  const stopContinuations =
    options.maxStopContinuations === undefined
      ? settings.maxStopContinuations?.value
      : Number(options.maxStopContinuations);
  // Loaded here, not at the top: `hookwire --help` never loads the Restate SDK.
  const restate = await import('@restatedev/restate-sdk');
  const { sessionObject } = await import('../../adapters/restate/index.ts');
  const object = sessionObject({
    recovery: settings.recovery,
    agent: () => {
      const tools = new ToolRegistry(
        builtinTools({
          shell: {
            runner,
            environment: { pass: settings.passEnvironment },
          },
        }),
        { compile: 'first-use' },
      );
      for (const tool of hookSession.mcp.tools) tools.register(tool);
      return {
        model,
        tools,
        hooks,
        cwd: projectDir,
        systemInstruction: composeSystemPrompt({
          ...(settings.systemPrompt === undefined ? {} : { base: settings.systemPrompt.value }),
          environment: {
            cwd: projectDir,
            platform: process.platform,
            arch: process.arch,
            date: localDate(),
            tools: tools.names(),
          },
          instructions: [],
        }),
        ...(permissions === undefined ? {} : { permissions }),
        ...(maxModelCalls === undefined ? {} : { maxModelCalls }),
        ...(stopContinuations === undefined ? {} : { stopContinuationsPerTurn: stopContinuations }),
      };
    },
  });
  const server = createServer(restate.createEndpointHandler({ services: [object] }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const endpoint = options.endpointUrl ?? `http://127.0.0.1:${bound}`;
  process.stdout.write(`hookwire worker: serving hookwire-session on http://127.0.0.1:${bound}\n`);
  if (options.restateAdmin === undefined) {
    process.stdout.write(
      `hookwire worker: register it with: curl -X POST <admin-url>/deployments -H 'content-type: application/json' -d '{"uri":"${endpoint}"}'\n`,
    );
  } else {
    await registerDeployment(options.restateAdmin, endpoint);
    process.stdout.write(`hookwire worker: registered ${endpoint} with ${options.restateAdmin}\n`);
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  server.close();
  await hookSession.close();
  return 0;
}
