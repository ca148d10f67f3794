/**
 * MCP servers of a session: started together (in parallel, each within its start-up deadline),
 * their tools adapted to hookwire tools named `mcp__SERVER__TOOL`, and stopped at the end.
 *
 * A server that fails to start (a missing program, a crash, a refused connection, a deadline
 * passed, an unset `${VAR}`) is a warning naming it and why; its tools are absent and everything
 * else runs. Stdio servers are contained like hook processes (see `ContainedStdioTransport`),
 * and an orphan watchdog (`watchdog.ts`) kills them if hookwire dies without stopping them
 * (SIGKILL included); HTTP servers are closed (their session terminated) at the end.
 *
 * A stdio server that exits mid-session is reported once (`onWarning`, and in `exits` for the
 * run's records) and restarted: at once, then with backoff (`restartBackoffMs`), at most
 * `MAX_MCP_RESTART_ATTEMPTS` failed attempts in a row and `MAX_MCP_RESTARTS` restarts per
 * session. A call made while a restart is connecting waits for it (within the call's deadline);
 * one made during the backoff answers that the server is restarting; once the attempts are
 * spent the server's tools answer that it is not running. The tool list is the one read at start.
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

/** A stdio server that exited mid-session, as the run's records show it. */
export interface McpServerExit {
  readonly server: string;
  /** How the server ended: `exited with code 7; stderr: …`. */
  readonly exit: string;
  /** What became of it: `restarted`, or `failed` when the restart attempts were spent. */
  readonly outcome: 'restarted' | 'failed' | 'pending';
  /** Restart attempts made for this exit. */
  readonly attempts: number;
}

/** The MCP servers of a session. */
export interface McpConnections {
  /** Every configured server, in configuration order, with its state. */
  readonly servers: readonly McpServerStatus[];
  /** The tools of every connected server, server by server, in the order each server listed them. */
  readonly tools: readonly McpTool[];
  /** Every mid-session exit of a server so far, in order (empty when none died). */
  exits(): readonly McpServerExit[];
  /** Closes every connection and stops every server process. Idempotent; never rejects. */
  close(): Promise<void>;
}

/** Failed restart attempts in a row after which a server that exited is given up. */
export const MAX_MCP_RESTART_ATTEMPTS = 3;
/** Restarts per server per session (a server that dies at every call is given up after them). */
export const MAX_MCP_RESTARTS = 10;

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
  /**
   * Waits before the restart attempts after the immediate first one; default 500 ms, 2 s
   * (`MAX_MCP_RESTART_ATTEMPTS` attempts in all).
   */
  readonly restartBackoffMs?: readonly number[];
}

const DEFAULT_RESTART_BACKOFF_MS = [500, 2000] as const;

/**
 * One server's live connection. `client` and `transport` are replaced by a restart; `state`
 * says whether calls can go through.
 */
interface Link {
  client: Client;
  transport: Transport;
  state: 'connected' | 'restarting' | 'backoff' | 'failed';
  /** Settles when the restart in progress ends (connected or not). */
  restarting: Promise<void> | undefined;
  /** Why the server last exited (for the messages its tools answer). */
  lastExit: string;
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
  const links: Link[] = [];
  const exits: {
    server: string;
    exit: string;
    outcome: McpServerExit['outcome'];
    attempts: number;
  }[] = [];
  let closed = false;
  // Read through a function: `closed` changes across the awaits of a restart.
  const isClosed = (): boolean => closed;
  const backoffMs = options.restartBackoffMs ?? DEFAULT_RESTART_BACKOFF_MS;
  const clientInfo = options.clientInfo ?? { name: 'hookwire', version: '0' };

  /** Starts the server of `entry` again on a fresh transport, within its start-up deadline. */
  const reconnect = async (entry: McpServerEntry, link: Link): Promise<void> => {
    const transport = createTransport(
      entry.config,
      options.projectDir,
      env,
      scope.nextTag(),
      watchdog,
    );
    const client = new Client(clientInfo, { capabilities: {} });
    try {
      await withDeadline(
        client.connect(transport, { timeout: entry.config.startupTimeoutMs }),
        entry.config.startupTimeoutMs,
        `MCP server "${entry.name}"`,
      );
    } catch (error) {
      const detail =
        transport instanceof ContainedStdioTransport ? transport.describeFailure() : '';
      await transport.close().catch(() => undefined);
      throw new Error(`${errorText(error)}${detail === '' ? '' : ` (${detail})`}`, {
        cause: error,
      });
    }
    if (isClosed()) {
      // The session closed while this server started: stop it here, close() has passed it by.
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      return;
    }
    link.client = client;
    link.transport = transport;
    watchExit(entry, link);
  };

  /** Restarts `link`'s server after it exited: at once, then after each backoff step. */
  const restart = async (entry: McpServerEntry, link: Link): Promise<void> => {
    const record = {
      server: entry.name,
      exit: link.lastExit,
      outcome: 'pending' as McpServerExit['outcome'],
      attempts: 0,
    };
    exits.push(record);
    const restarts = exits.filter((exit) => exit.server === entry.name).length;
    if (restarts === 1)
      options.onWarning?.(
        `hookwire: MCP server "${entry.name}" (${entry.file}) exited mid-session (${link.lastExit}); restarting it, its tools answer that it is restarting meanwhile`,
      );
    const gaveUp = (why: string): void => {
      record.outcome = 'failed';
      link.state = 'failed';
      options.onWarning?.(
        `hookwire: MCP server "${entry.name}" (${entry.file}) ${why}; its tools are not available for the rest of the session`,
      );
    };
    if (restarts > MAX_MCP_RESTARTS) {
      gaveUp(
        `exited ${restarts} times (${link.lastExit}), more than the ${MAX_MCP_RESTARTS} restarts allowed`,
      );
      return;
    }
    let lastError = '';
    for (let attempt = 0; attempt < MAX_MCP_RESTART_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        link.state = 'backoff';
        // Unreferenced: a backoff never holds a process that is otherwise done.
        await new Promise((wake) =>
          setTimeout(wake, backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 0).unref(),
        );
      }
      if (isClosed()) return;
      link.state = 'restarting';
      record.attempts = attempt + 1;
      try {
        await reconnect(entry, link);
        if (isClosed()) return;
        record.outcome = 'restarted';
        link.state = 'connected';
        return;
      } catch (error) {
        lastError = errorText(error);
      }
    }
    gaveUp(`could not be restarted after it exited (${link.lastExit}): ${lastError}`);
  };

  /** Restarts `link`'s stdio server when it exits while the session is open. */
  const watchExit = (entry: McpServerEntry, link: Link): void => {
    const transport = link.transport;
    if (!(transport instanceof ContainedStdioTransport)) return;
    transport.onExit = () => {
      if (closed || link.transport !== transport) return;
      link.lastExit = transport.describeFailure() || 'it exited';
      link.state = 'restarting';
      const restarting = restart(entry, link);
      link.restarting = restarting;
      void restarting.finally(() => {
        if (link.restarting === restarting) link.restarting = undefined;
      });
    };
  };

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
        const client = new Client(clientInfo, { capabilities: {} });
        const connectAndList = async (): Promise<McpToolDefinition[]> => {
          await client.connect(transport as Transport, { timeout: entry.config.startupTimeoutMs });
          links.push(link);
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
        const link: Link = {
          client,
          transport,
          state: 'connected',
          restarting: undefined,
          lastExit: '',
        };
        const listed = await withDeadline(
          connectAndList(),
          entry.config.startupTimeoutMs,
          `MCP server "${entry.name}"`,
        );
        watchExit(entry, link);
        const tools = listed.map((definition) => adaptTool(link, entry, context, definition));
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
    exits: () => exits.map((exit) => ({ ...exit })),
    close() {
      closed = true;
      closing ??= (async () => {
        await Promise.all(
          links.map(async ({ client, transport }) => {
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
  link: Link,
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
  const server = `MCP server "${entry.name}"`;
  return {
    declaration,
    mcpContext,
    async execute(args, { signal }) {
      // A restart that is connecting now is waited for (within the call's deadline).
      if (link.state === 'restarting' && link.restarting !== undefined)
        await withDeadline(link.restarting, timeout, `the restart of ${server}`).catch(
          () => undefined,
        );
      if (link.state === 'restarting' || link.state === 'backoff')
        throw new Error(
          `${server} is restarting (it exited: ${link.lastExit}); try the call again shortly`,
        );
      if (link.state === 'failed')
        throw new Error(
          `${server} is not running: it exited (${link.lastExit}) and was not restarted`,
        );
      const { client, transport } = link;
      let result;
      try {
        result = await client.callTool(
          {
            name: definition.name,
            arguments: (args ?? {}) as Record<string, unknown>,
          },
          undefined,
          { signal, timeout, resetTimeoutOnProgress: true, maxTotalTimeout: timeout },
        );
      } catch (error) {
        // The server exited during the call: say so, not the SDK's "Connection closed".
        if (transport instanceof ContainedStdioTransport && !transport.running && !signal.aborted)
          throw new Error(
            `${server} exited during the call (${transport.describeFailure() || 'it exited'}); it is being restarted, and whether the call took effect is unknown`,
            { cause: error },
          );
        throw error;
      }
      const outcome = toToolOutcome(result);
      if (outcome.isError) throw new Error(outcome.errorText);
      return outcome.result;
    },
  };
}
