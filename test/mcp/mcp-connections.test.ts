/**
 * `startMcpServers` against real servers written with the SDK's server side: a stdio server
 * process and a streamable HTTP server on 127.0.0.1. Tools, results (text, image, structured,
 * isError), failures as warnings, and containment of a server's processes at close.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMcpServers, type McpConnections } from '../../src/mcp/mcp-connections.ts';
import { readMcpServers, type McpServerEntry } from '../../src/hook-kinds/settings/mcp-servers.ts';
import type { SettingsIssue } from '../../src/hook-kinds/settings/index.ts';
import { PIXEL_PNG } from '../fixtures/mcp/notes-server.ts';
import { startHttpMcpServer, type TestHttpMcpServer } from '../fixtures/mcp/http-server.ts';

const STDIO_SERVER = resolve(import.meta.dirname, '..', 'fixtures', 'mcp', 'stdio-server.ts');

function entries(servers: Record<string, unknown>, file = '/settings.json'): McpServerEntry[] {
  const issues: SettingsIssue[] = [];
  const read = readMcpServers({ mcpServers: servers }, { file, layer: 'user' }, issues);
  expect(issues).toEqual([]);
  return read;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pid: number): Promise<boolean> {
  for (let index = 0; index < 100; index++) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isRunning(pid);
}

async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('startMcpServers', () => {
  let dir: string;
  let http: TestHttpMcpServer | undefined;
  let connections: McpConnections | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookwire-mcp-'));
  });
  afterEach(async () => {
    await connections?.close();
    connections = undefined;
    await http?.close();
    http = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('connects a stdio and an HTTP server in parallel and offers their tools as mcp__NAME__TOOL', async () => {
    const log = join(dir, 'calls.jsonl');
    http = await startHttpMcpServer('web', log);
    const warnings: string[] = [];
    connections = await startMcpServers(
      entries({
        notes: { command: process.execPath, args: [STDIO_SERVER, 'notes', log] },
        web: { type: 'http', url: http.url, headers: { 'X-Team': '${TEAM}' } },
      }),
      {
        projectDir: dir,
        env: { ...process.env, TEAM: 'blue' },
        onWarning: (line) => warnings.push(line),
      },
    );
    expect(warnings).toEqual([]);
    expect(connections.servers.map((server) => [server.name, server.state])).toEqual([
      ['notes', 'connected'],
      ['web', 'connected'],
    ]);
    const names = connections.tools.map((tool) => tool.declaration.name);
    expect(names).toContain('mcp__notes__write_note');
    expect(names).toContain('mcp__web__echo');
    const write = connections.tools.find(
      (tool) => tool.declaration.name === 'mcp__notes__write_note',
    );
    expect(write?.declaration.parameters).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string' }, text: { type: 'string' } },
      required: ['title', 'text'],
    });
    expect(write?.mcpContext).toEqual({
      server_name: 'notes',
      tool_name: 'write_note',
      command: process.execPath,
      args: [STDIO_SERVER, 'notes', log],
      cwd: dir,
    });
    const echo = connections.tools.find((tool) => tool.declaration.name === 'mcp__web__echo');
    expect(echo?.mcpContext).toEqual({ server_name: 'web', tool_name: 'echo', url: http.url });
    expect(http.requestHeaders.some((headers) => headers['x-team'] === 'blue')).toBe(true);

    const signal = new AbortController().signal;
    await expect(write?.execute({ title: 'a', text: 'b' }, { signal })).resolves.toBe('saved a');
    await expect(echo?.execute({ text: 'hi' }, { signal })).resolves.toBe('echo: hi');
    const calls = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(calls).toEqual([
      { server: 'notes', tool: 'write_note', args: { title: 'a', text: 'b' } },
      { server: 'web', tool: 'echo', args: { text: 'hi' } },
    ]);
  });

  it('maps images, structured content and isError to tool results', async () => {
    connections = await startMcpServers(
      entries({ notes: { command: process.execPath, args: [STDIO_SERVER, 'notes'] } }),
      { projectDir: dir },
    );
    const tool = (name: string) => {
      const found = connections?.tools.find(
        (entry) => entry.declaration.name === `mcp__notes__${name}`,
      );
      if (found === undefined) throw new Error(`no tool ${name}`);
      return found;
    };
    const signal = new AbortController().signal;
    await expect(tool('pixel').execute({}, { signal })).resolves.toEqual({
      content: [
        { type: 'text', text: 'a pixel' },
        { type: 'media', mimeType: 'image/png', data: PIXEL_PNG, encoding: 'base64' },
      ],
    });
    await tool('write_note').execute({ title: 'x', text: 'y' }, { signal });
    await expect(tool('stats').execute({}, { signal })).resolves.toEqual({
      notes: 1,
      server: 'notes',
    });
    await expect(tool('fail').execute({}, { signal })).rejects.toThrow('the disk is full');
  });

  it('a server that fails to start is one warning; its tools are absent and the others connect', async () => {
    const warnings: string[] = [];
    connections = await startMcpServers(
      entries({
        missing: { command: join(dir, 'no-such-server') },
        crashing: {
          command: process.execPath,
          args: [STDIO_SERVER],
          env: { HOOKWIRE_TEST_MCP_CRASH: '1' },
        },
        silent: {
          command: process.execPath,
          args: ['-e', 'setInterval(() => {}, 1000)'],
          startupTimeout: '300ms',
        },
        unset: { command: process.execPath, args: ['${HOOKWIRE_TEST_UNSET_VARIABLE}'] },
        refused: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        notes: { command: process.execPath, args: [STDIO_SERVER, 'notes'] },
        off: { command: process.execPath, args: [STDIO_SERVER], disabled: true },
      }),
      { projectDir: dir, onWarning: (line) => warnings.push(line) },
    );
    const states = Object.fromEntries(
      connections.servers.map((server) => [server.name, server.state]),
    );
    expect(states).toEqual({
      missing: 'failed',
      crashing: 'failed',
      silent: 'failed',
      unset: 'failed',
      refused: 'failed',
      notes: 'connected',
      off: 'disabled',
    });
    expect(warnings).toHaveLength(5);
    for (const line of warnings) {
      expect(line).toMatch(
        /^hookwire: MCP server "\w+" \(\/settings\.json\) did not start: .+; its tools are not available$/,
      );
      expect(line).not.toContain('\n');
    }
    const byName = (name: string) => warnings.find((line) => line.includes(`"${name}"`)) ?? '';
    expect(byName('missing')).toContain('ENOENT');
    expect(byName('crashing')).toContain('cannot open the database');
    expect(byName('silent')).toContain('start-up deadline of 300 ms');
    expect(byName('unset')).toContain('${HOOKWIRE_TEST_UNSET_VARIABLE} is not set');
    expect(connections.tools.every((tool) => tool.mcpContext.server_name === 'notes')).toBe(true);
    expect(connections.tools.length).toBeGreaterThan(0);
  });

  it('close stops the server process and what it started outside its process group', async () => {
    const pidFile = join(dir, 'server.pid');
    const daemonFile = join(dir, 'daemon.pid');
    connections = await startMcpServers(
      entries({
        notes: {
          command: process.execPath,
          args: [STDIO_SERVER, 'notes'],
          env: { HOOKWIRE_TEST_MCP_PID_FILE: pidFile },
        },
      }),
      { projectDir: dir },
    );
    const start = connections.tools.find(
      (tool) => tool.declaration.name === 'mcp__notes__start_daemon',
    );
    await start?.execute({ pidFile: daemonFile }, { signal: new AbortController().signal });
    const serverPid = Number(await readFile(pidFile, 'utf8'));
    const daemonPid = Number(await readFile(daemonFile, 'utf8'));
    expect(isRunning(serverPid)).toBe(true);
    expect(isRunning(daemonPid)).toBe(true);
    await connections.close();
    expect(await waitGone(serverPid)).toBe(true);
    expect(await waitGone(daemonPid)).toBe(true);
  });

  it('an answer over the 10 MiB limit fails that call, naming the limit; the server answers the next call', async () => {
    connections = await startMcpServers(
      entries({
        notes: {
          command: process.execPath,
          args: [STDIO_SERVER, 'notes'],
          env: { HOOKWIRE_TEST_MCP_HUGE_TOOL: '1' },
        },
      }),
      { projectDir: dir },
    );
    const tool = (name: string) => {
      const found = connections?.tools.find(
        (entry) => entry.declaration.name === `mcp__notes__${name}`,
      );
      if (found === undefined) throw new Error(`no tool ${name}`);
      return found;
    };
    const signal = new AbortController().signal;
    await expect(tool('huge').execute({ mib: 11 }, { signal })).rejects.toThrow(
      /answer to tools\/call is \d+ bytes, over hookwire's limit of 10 MiB on one MCP message/,
    );
    // Under the limit, a large answer arrives whole.
    const nine = await tool('huge').execute({ mib: 9 }, { signal });
    expect(typeof nine === 'string' ? nine.length : 0).toBe(9 * 1024 * 1024);
    await expect(tool('echo').execute({ text: 'still here' }, { signal })).resolves.toBe(
      'echo: still here',
    );
  });

  it('a tools/list over the limit fails that server with one warning naming the limit', async () => {
    const warnings: string[] = [];
    connections = await startMcpServers(
      entries({
        verbose: {
          command: process.execPath,
          args: [STDIO_SERVER, 'verbose'],
          env: { HOOKWIRE_TEST_MCP_HUGE_LIST: '11' },
        },
        notes: { command: process.execPath, args: [STDIO_SERVER, 'notes'] },
      }),
      { projectDir: dir, onWarning: (line) => warnings.push(line) },
    );
    expect(connections.servers.map((server) => [server.name, server.state])).toEqual([
      ['verbose', 'failed'],
      ['notes', 'connected'],
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^hookwire: MCP server "verbose" \(\/settings\.json\) did not start: .*answer to tools\/list is \d+ bytes, over hookwire's limit of 10 MiB.*; its tools are not available$/,
    );
  });

  it('a server that exits mid-session is reported once and restarted; the next call succeeds', async () => {
    const warnings: string[] = [];
    const exitedFile = join(dir, 'exited.pid');
    connections = await startMcpServers(
      entries({
        notes: {
          command: process.execPath,
          args: [STDIO_SERVER, 'notes'],
          env: { HOOKWIRE_TEST_MCP_EXIT_AFTER_CALL: exitedFile },
        },
      }),
      { projectDir: dir, onWarning: (line) => warnings.push(line) },
    );
    const echo = connections.tools.find((tool) => tool.declaration.name === 'mcp__notes__echo');
    const signal = new AbortController().signal;
    await expect(echo?.execute({ text: 'one' }, { signal })).resolves.toBe('echo: one');
    const firstPid = Number(await readFile(exitedFile, 'utf8'));
    expect(await waitGone(firstPid)).toBe(true);
    await waitFor(() => connections?.exits()[0]?.outcome === 'restarted');
    await expect(echo?.execute({ text: 'two' }, { signal })).resolves.toBe('echo: two');
    expect(connections.exits()).toEqual([
      { server: 'notes', exit: 'exited with code 7', outcome: 'restarted', attempts: 1 },
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^hookwire: MCP server "notes" \(\/settings\.json\) exited mid-session \(exited with code 7\); restarting it/,
      ),
    ]);
  });

  it('a server that cannot be restarted is given up after the bounded attempts; its tools say so', async () => {
    const warnings: string[] = [];
    const exitedFile = join(dir, 'exited.pid');
    connections = await startMcpServers(
      entries({
        notes: {
          command: process.execPath,
          args: [STDIO_SERVER, 'notes'],
          env: {
            HOOKWIRE_TEST_MCP_EXIT_AFTER_CALL: exitedFile,
            HOOKWIRE_TEST_MCP_CRASH_IF: exitedFile,
          },
        },
      }),
      { projectDir: dir, onWarning: (line) => warnings.push(line), restartBackoffMs: [50, 50] },
    );
    const echo = connections.tools.find((tool) => tool.declaration.name === 'mcp__notes__echo');
    const signal = new AbortController().signal;
    await expect(echo?.execute({ text: 'one' }, { signal })).resolves.toBe('echo: one');
    await waitFor(() => connections?.exits()[0]?.outcome === 'failed');
    expect(connections.exits()[0]?.attempts).toBe(3);
    await expect(echo?.execute({ text: 'two' }, { signal })).rejects.toThrow(
      'MCP server "notes" is not running: it exited (exited with code 7) and was not restarted',
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(
      /^hookwire: MCP server "notes" .* could not be restarted after it exited \(exited with code 7\): .*cannot open the database.*; its tools are not available for the rest of the session$/,
    );
  });

  it('a cancelled call rejects at once', async () => {
    connections = await startMcpServers(
      entries({ notes: { command: process.execPath, args: [STDIO_SERVER, 'notes'] } }),
      { projectDir: dir },
    );
    const echo = connections.tools.find((tool) => tool.declaration.name === 'mcp__notes__echo');
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the test'));
    await expect(echo?.execute({ text: 'x' }, { signal: controller.signal })).rejects.toThrow();
  });
});
