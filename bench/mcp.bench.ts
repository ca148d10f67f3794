/**
 * MCP servers (`npm run bench -- mcp`), each figure beside its floor in the same run,
 * interleaved round by round; the floor is the official SDK used directly (`Client` over its own
 * `StdioClientTransport`), the cheapest honest way to do the same work:
 * (a) one `tools/call` of a stdio server's `echo` through hookwire's MCP tool (contained
 *     transport, result mapping) vs `client.callTool` on the SDK's transport (bound 1.5×);
 * (b) a session's start and stop of one stdio server (spawn, initialize, `tools/list`, close and
 *     the containment sweep) through `startMcpServers` vs the SDK's connect, `listTools` and
 *     close (bound 1.5×).
 * The server is the tests' (test/fixtures/mcp/stdio-server.ts, the SDK's McpServer). Times the
 * built dist/ when it exists.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { load, repositoryRoot, timing } from './built.ts';
import { compare } from './harness.ts';
import type * as ConnectionsModule from '../src/mcp/mcp-connections.ts';
import type * as ServersModule from '../src/hook-kinds/settings/mcp-servers.ts';

const { startMcpServers } = await load<typeof ConnectionsModule>('mcp/mcp-connections');
const { readMcpServers } = await load<typeof ServersModule>('hook-kinds/settings/mcp-servers');

const SERVER = join(repositoryRoot, 'test', 'fixtures', 'mcp', 'stdio-server.ts');
const SERVER_ARGS = [SERVER, 'bench'];

function entries(): ReturnType<typeof readMcpServers> {
  return readMcpServers(
    { mcpServers: { bench: { command: process.execPath, args: SERVER_ARGS } } },
    { file: 'bench', layer: 'user' },
    [],
  );
}

async function sdkClient(): Promise<Client> {
  const client = new Client({ name: 'bench', version: '0' }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: SERVER_ARGS, stderr: 'ignore' }),
  );
  return client;
}

export default async function run(): Promise<void> {
  console.log(`    ${timing()}`);
  const dir = await mkdtemp(join(tmpdir(), 'hookwire-mcp-bench-'));
  try {
    const connections = await startMcpServers(entries(), { projectDir: dir });
    const echo = connections.tools.find((tool) => tool.declaration.name === 'mcp__bench__echo');
    if (echo === undefined) throw new Error('the bench server did not start');
    const client = await sdkClient();
    const signal = new AbortController().signal;
    await compare(
      'MCP tool call (stdio echo): hookwire McpTool.execute vs SDK client.callTool',
      () => echo.execute({ text: 'hello' }, { signal }),
      () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
      { rounds: 30, operationsPerSample: 20, warmupRounds: 3, limit: 1.5 },
    );
    await connections.close();
    await client.close();

    await compare(
      'MCP server start + list + stop (stdio): startMcpServers vs SDK connect/listTools/close',
      async () => {
        const started = await startMcpServers(entries(), { projectDir: dir });
        if (started.tools.length === 0) throw new Error('no tools');
        await started.close();
      },
      async () => {
        const started = await sdkClient();
        const listed = await started.listTools();
        if (listed.tools.length === 0) throw new Error('no tools');
        await started.close();
      },
      { rounds: 8, warmupRounds: 1, limit: 1.5, unit: 'ms' },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
