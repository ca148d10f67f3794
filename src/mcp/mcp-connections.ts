/**
 * MCP servers of a session: started together (in parallel, each within its start-up deadline),
 * their tools adapted to hookwire tools named `mcp__SERVER__TOOL`, and stopped at the end.
 *
 * A server that fails to start (a missing program, a crash, a refused connection, a deadline
 * passed, an unset `${VAR}`) is a warning naming it and why; its tools are absent and everything
 * else runs. Stdio servers are contained like hook processes (see `ContainedStdioTransport`),
 * and an orphan watchdog (`watchdog.ts`) kills them if hookwire dies without stopping them
 * (SIGKILL included); HTTP servers are closed (their session terminated) at the end.
 */
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDeclaration } from '../content/index.ts';
import type { McpContext } from '../events/index.ts';
import { createContainmentScope, killScope } from '../supervision/containment.ts';
import { startWatchdog, type Watchdog } from '../supervision/watchdog.ts';
import {
  expandVariables,
  type McpServerConfig,
  type McpServerEntry,
} from '../hook-kinds/settings/mcp-servers.ts';
import { ContainedStdioTransport } from './contained-stdio-transport.ts';
import { toToolOutcome } from './mcp-tool-result.ts';

/** The prefix of every MCP tool's name: `mcp__SERVER__TOOL`. */
export const MCP_TOOL_PREFIX = 'mcp__';

/** A server's state: `connected` (its tools are offered), `failed`, `disabled` (settings). */
export type McpServerState = 'connected' | 'failed' | 'disabled';

/** One configured server, as the session sees it (what `hookwire mcp list` prints). */
export interface McpServerStatus {
  readonly name: string;
  readonly type: McpServerConfig['type'];
  readonly state: McpServerState;
  /** Where it was configured (file and JSON path). */
  readonly file: string;
  readonly path: string;
  /** Why it failed (`failed` only). */
  readonly error?: string;
  /** Milliseconds from the start to connected (or failed). */
  readonly startMs?: number;
  /** Its tools (`connected` only), with their full names. */
  readonly tools: readonly { readonly name: string; readonly description?: string }[];
  /** What `mcp_context` carries for its tools. */
  readonly context: Omit<McpContext, 'tool_name'>;
}

/**
 * An MCP tool as a hookwire tool (structurally the loop's `Tool`): the declaration the model sees
 * (`mcp__SERVER__TOOL`, the server's description and input schema), `mcpContext` for the tool
 * events' `mcp_context`, and `execute`, which calls the server within the server's `timeout`
 * and the run's cancellation. A result with `isError` throws, so the model sees the tool's error.
 */
export interface McpTool {
  readonly declaration: ToolDeclaration;
  readonly mcpContext: McpContext;
  execute(args: unknown, context: { readonly signal: AbortSignal }): Promise<unknown>;
}

/** The MCP servers of a session. */
export interface McpConnections {
  /** Every configured server, in configuration order, with its state. */
  readonly servers: readonly McpServerStatus[];
  /** The tools of every connected server, server by server, in the order each server listed them. */
  readonly tools: readonly McpTool[];
  /** Closes every connection and stops every server process. Idempotent; never rejects. */
  close(): Promise<void>;
}

/** Options of `startMcpServers`. */
export interface StartMcpServersOptions {
  /** Where stdio servers run (their `cwd` is relative to it). */
  readonly projectDir: string;
  /** The environment `${VAR}` expands from and servers inherit. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Called once per server that fails to start, with one line naming it and why. */
  readonly onWarning?: (line: string) => void;
  /** Client name/version announced to servers. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

interface Connected {
  readonly client: Client;
  readonly transport: Transport;
}

/** Names a provider accepts for a tool: letters, digits, `_` and `-`; anything else becomes `_`. */
function toolNamePart(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

function contextOf(
  config: McpServerConfig,
  name: string,
  projectDir: string,
): Omit<McpContext, 'tool_name'> {
  if (config.type === 'http') return { server_name: name, url: config.url };
  return {
    server_name: name,
    command: config.command,
    args: config.args,
    cwd: resolve(projectDir, config.cwd ?? '.'),
  };
}

function expandAll(
  values: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) out[key] = expandOrThrow(value, env);
  return out;
}

function expandOrThrow(text: string, env: Readonly<Record<string, string | undefined>>): string {
  const expanded = expandVariables(text, env);
  if (!expanded.ok)
    throw new Error(
      `\${${expanded.missing}} is not set (set it, or write \${${expanded.missing}:-default})`,
    );
  return expanded.text;
}

function inheritedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not finish within its start-up deadline of ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts every server of `servers` in parallel and lists its tools, each within its
 * `startupTimeout`. Resolves when every server is connected or has failed (never rejects for a
 * server's failure). Close the result at session end.
 */
export async function startMcpServers(
  servers: readonly McpServerEntry[],
  options: StartMcpServersOptions,
): Promise<McpConnections> {
  const env = options.env ?? process.env;
  const scope = createContainmentScope();
  const watchdog = servers.some((entry) => entry.config.type !== 'http' && !entry.config.disabled)
    ? startWatchdog(scope.prefix)
    : undefined;
  const connections: Connected[] = [];
  const outcomes = await Promise.all(
    servers.map(async (entry): Promise<{ status: McpServerStatus; tools: McpTool[] }> => {
      const context = contextOf(entry.config, entry.name, options.projectDir);
      const base = {
        name: entry.name,
        type: entry.config.type,
        file: entry.file,
        path: entry.path,
        context,
      };
      if (entry.config.disabled)
        return { status: { ...base, state: 'disabled', tools: [] }, tools: [] };
      const started = performance.now();
      let transport: Transport | undefined;
      try {
        transport = createTransport(
          entry.config,
          options.projectDir,
          env,
          scope.nextTag(),
          watchdog,
        );
        const client = new Client(options.clientInfo ?? { name: 'hookwire', version: '0' }, {
          capabilities: {},
        });
        const connectAndList = async (): Promise<McpToolDefinition[]> => {
          await client.connect(transport as Transport, { timeout: entry.config.startupTimeoutMs });
          connections.push({ client, transport: transport as Transport });
          const listed: McpToolDefinition[] = [];
          let cursor: string | undefined;
          do {
            const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
              timeout: entry.config.startupTimeoutMs,
            });
            for (const tool of page.tools) listed.push(tool);
            cursor = page.nextCursor;
          } while (cursor !== undefined && listed.length < 10_000);
          return listed;
        };
        const listed = await withDeadline(
          connectAndList(),
          entry.config.startupTimeoutMs,
          `MCP server "${entry.name}"`,
        );
        const tools = listed.map((definition) => adaptTool(client, entry, context, definition));
        return {
          status: {
            ...base,
            state: 'connected',
            startMs: Math.round(performance.now() - started),
            tools: tools.map((tool) => ({
              name: tool.declaration.name,
              ...(tool.declaration.description === undefined
                ? {}
                : { description: tool.declaration.description }),
            })),
          },
          tools,
        };
      } catch (error) {
        const detail =
          transport instanceof ContainedStdioTransport ? transport.describeFailure() : '';
        await transport?.close().catch(() => undefined);
        const message = `${errorText(error)}${detail === '' ? '' : ` (${detail})`}`;
        options.onWarning?.(
          `hookwire: MCP server "${entry.name}" (${entry.file}) did not start: ${message}; its tools are not available`,
        );
        return {
          status: {
            ...base,
            state: 'failed',
            error: message,
            startMs: Math.round(performance.now() - started),
            tools: [],
          },
          tools: [],
        };
      }
    }),
  );

  let closing: Promise<void> | undefined;
  return {
    servers: outcomes.map((outcome) => outcome.status),
    tools: outcomes.flatMap((outcome) => outcome.tools),
    close() {
      closing ??= (async () => {
        await Promise.all(
          connections.map(async ({ client, transport }) => {
            if (transport instanceof StreamableHTTPClientTransport)
              await transport.terminateSession().catch(() => undefined);
            await client.close().catch(() => undefined);
            await transport.close().catch(() => undefined);
          }),
        );
        // Anything a stdio server started that is still running (its transport has killed the rest).
        await killScope(scope.prefix, 1000);
        await watchdog?.close();
      })();
      return closing;
    },
  };
}

function createTransport(
  config: McpServerConfig,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>,
  tag: string,
  watchdog: Watchdog | undefined,
): Transport {
  if (config.type === 'http') {
    const url = new URL(expandOrThrow(config.url, env));
    const headers = expandAll(config.headers, env);
    return new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  }
  return new ContainedStdioTransport({
    command: expandOrThrow(config.command, env),
    args: config.args.map((arg) => expandOrThrow(arg, env)),
    cwd: resolve(projectDir, expandOrThrow(config.cwd ?? '.', env)),
    env: { ...inheritedEnv(env), ...expandAll(config.env, env) },
    tag,
    ...(watchdog === undefined ? {} : { watchdog }),
  });
}

function adaptTool(
  client: Client,
  entry: McpServerEntry,
  context: Omit<McpContext, 'tool_name'>,
  definition: McpToolDefinition,
): McpTool {
  const name = `${MCP_TOOL_PREFIX}${toolNamePart(entry.name)}__${toolNamePart(definition.name)}`;
  const description = definition.description ?? definition.title;
  const declaration: ToolDeclaration = {
    name,
    ...(description === undefined ? {} : { description }),
    parameters: definition.inputSchema,
  };
  const mcpContext: McpContext = { ...context, tool_name: definition.name };
  const timeout = entry.config.timeoutMs;
  return {
    declaration,
    mcpContext,
    async execute(args, { signal }) {
      const result = await client.callTool(
        {
          name: definition.name,
          arguments: (args ?? {}) as Record<string, unknown>,
        },
        undefined,
        { signal, timeout, resetTimeoutOnProgress: true, maxTotalTimeout: timeout },
      );
      const outcome = toToolOutcome(result);
      if (outcome.isError) throw new Error(outcome.errorText);
      return outcome.result;
    },
  };
}
