import { writeStdout } from '../output/stdout.ts';
import { relative } from 'node:path';
import type { McpServerStatus } from '../../mcp/mcp-connections.ts';
import { packageVersion } from '../package-version.ts';
import {
  openCommandHookSession,
  projectDirOf,
  untrustedNotice,
  type SettingsCommandOptions,
} from '../settings-options.ts';

/** Options of `hookwire mcp list`. */
export interface McpListOptions extends SettingsCommandOptions {
  /** Print the servers as one JSON array instead of a table. */
  readonly json?: boolean;
}

/** One row of `hookwire mcp list --json`. */
export interface McpListRow extends Omit<McpServerStatus, 'state'> {
  /** `connected`, `failed`, `disabled`, or `untrusted` (a project server that was not started). */
  readonly state: McpServerStatus['state'] | 'untrusted';
}

function shown(projectDir: string, file: string): string {
  const path = relative(projectDir, file);
  return path.startsWith('..') ? file : path;
}

/**
 * `hookwire mcp list`: starts the MCP servers of every settings layer and the project's
 * `.mcp.json` as `run` would (trusted the same way), and lists each with its state —
 * `connected` (with its tools, by their full `mcp__SERVER__TOOL` names), `failed` (and why),
 * `disabled`, or `untrusted` (not started) — then stops them. `--json` prints `McpListRow[]`.
 * Exit 0 when every enabled, trusted server connected; 1 when one failed.
 */
export async function mcpListCommand(options: McpListOptions): Promise<number> {
  const projectDir = projectDirOf(options);
  const session = await openCommandHookSession(options, {
    mcp: { clientInfo: { name: 'hookwire', version: packageVersion() } },
  });
  try {
    const { settings, mcp } = session;
    const rows: McpListRow[] = [
      ...mcp.servers,
      ...settings.ignoredMcpServers.map((entry): McpListRow => ({
        name: entry.name,
        type: entry.config.type,
        state: 'untrusted',
        file: entry.file,
        path: entry.path,
        tools: [],
        context:
          entry.config.type === 'http'
            ? { server_name: entry.name, url: entry.config.url }
            : { server_name: entry.name, command: entry.config.command, args: entry.config.args },
      })),
    ];
    if (options.json === true) {
      writeStdout(`${JSON.stringify(rows, null, 2)}\n`);
    } else if (rows.length === 0) {
      writeStdout(
        'No MCP servers configured (add "mcpServers" to .hookwire/settings.json or a project .mcp.json).\n',
      );
    } else {
      const lines: string[] = [];
      for (const row of rows) {
        const where =
          row.type === 'http'
            ? (row.context.url ?? '')
            : [row.context.command, ...(row.context.args ?? [])].join(' ');
        const state =
          row.state === 'connected'
            ? `connected, ${row.tools.length} tool${row.tools.length === 1 ? '' : 's'}${row.startMs === undefined ? '' : ` in ${row.startMs} ms`}`
            : row.state === 'failed'
              ? `failed: ${row.error ?? 'unknown error'}`
              : row.state;
        lines.push(`${row.name}  ${row.type}  ${state}`);
        lines.push(`  ${where}`);
        lines.push(`  from ${shown(projectDir, row.file)} at ${row.path}`);
        for (const tool of row.tools)
          lines.push(
            `  - ${tool.name}${tool.description === undefined ? '' : `: ${tool.description.split('\n')[0] ?? ''}`}`,
          );
      }
      writeStdout(`${lines.join('\n')}\n`);
    }
    const notice = untrustedNotice(settings, options);
    if (notice !== undefined) process.stderr.write(`${notice}\n`);
    return mcp.servers.some((server) => server.state === 'failed') ? 1 : 0;
  } finally {
    await session.close();
  }
}
