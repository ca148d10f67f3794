import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.ts';
import {
  DEFAULT_MCP_STARTUP_TIMEOUT_MS,
  DEFAULT_MCP_TOOL_TIMEOUT_MS,
  expandVariables,
  mcpServerFingerprint,
  readMcpJsonText,
  readMcpServers,
  type McpServerConfig,
} from './mcp-servers.ts';
import { SettingsError } from './settings-error.ts';
import type { SettingsIssue } from './settings-issue.ts';

function read(servers: unknown): {
  servers: ReturnType<typeof readMcpServers>;
  issues: SettingsIssue[];
} {
  const issues: SettingsIssue[] = [];
  const entries = readMcpServers(
    { mcpServers: servers },
    { file: 'settings.json', layer: 'user' },
    issues,
  );
  return { servers: entries, issues };
}

describe('readMcpServers', () => {
  it('reads stdio and HTTP servers in the Claude Code / Gemini CLI shapes, with defaults', () => {
    const { servers, issues } = read({
      files: { command: 'npx', args: ['-y', 'files'], env: { ROOT: '/srv' }, cwd: 'tools' },
      typed: { type: 'stdio', command: 'node', timeout: 5000, startupTimeout: '2s' },
      web: {
        type: 'http',
        url: 'http://127.0.0.1:8080/mcp',
        headers: { Authorization: 'Bearer x' },
      },
      gemini: { httpUrl: 'https://example.test/mcp', description: 'docs', disabled: true },
    });
    expect(issues).toEqual([]);
    expect(servers.map((server) => [server.name, server.path, server.config])).toEqual([
      [
        'files',
        'mcpServers.files',
        {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'files'],
          env: { ROOT: '/srv' },
          cwd: 'tools',
          timeoutMs: DEFAULT_MCP_TOOL_TIMEOUT_MS,
          startupTimeoutMs: DEFAULT_MCP_STARTUP_TIMEOUT_MS,
          disabled: false,
        },
      ],
      [
        'typed',
        'mcpServers.typed',
        expect.objectContaining({ type: 'stdio', timeoutMs: 5000, startupTimeoutMs: 2000 }),
      ],
      [
        'web',
        'mcpServers.web',
        expect.objectContaining({
          type: 'http',
          url: 'http://127.0.0.1:8080/mcp',
          headers: { Authorization: 'Bearer x' },
        }),
      ],
      [
        'gemini',
        'mcpServers.gemini',
        expect.objectContaining({
          type: 'http',
          url: 'https://example.test/mcp',
          disabled: true,
          description: 'docs',
        }),
      ],
    ]);
  });

  it('reports every problem with its JSON path and a fix, and keeps the valid servers', () => {
    const { servers, issues } = read({
      'bad name': { command: 'x' },
      double__under: { command: 'x' },
      nocommand: { args: ['a'] },
      sse: { type: 'sse', url: 'http://x' },
      mixed: { type: 'http', url: 'http://x', command: 'y' },
      ftp: { type: 'http', url: 'ftp://x' },
      slow: { command: 'x', timeout: '5 minutes' },
      typo: { command: 'x', argz: [] },
      badargs: { command: 'x', args: 'a b' },
      badenv: { command: 'x', env: { A: 1 } },
      ok: { command: 'fine' },
    });
    expect(servers.map((server) => server.name)).toEqual(['ok']);
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['mcpServers["bad name"]', 'server name "bad name" cannot be part of a tool name'],
      ['mcpServers.double__under', 'server name "double__under" cannot be part of a tool name'],
      ['mcpServers.nocommand.command', 'missing required field "command"'],
      ['mcpServers.sse.type', 'server type "sse" is not supported'],
      ['mcpServers.mixed.command', 'command belongs to a stdio server, not an HTTP one'],
      ['mcpServers.ftp.url', 'url "ftp://x" is not an http(s) URL'],
      ['mcpServers.slow.timeout', 'timeout "5 minutes" is not a duration'],
      ['mcpServers.typo.argz', 'unknown field "argz" in an MCP server'],
      ['mcpServers.badargs.args', 'args must be a list of strings'],
      ['mcpServers.badenv.env.A', 'must be a string'],
    ]);
    for (const issue of issues) expect(issue.fix).not.toBe('');
    expect(issues[0]?.fix).toContain('mcp__NAME__TOOL');
  });

  it('fingerprints what runs: the description does not count, the command and its arguments do', () => {
    const base: McpServerConfig = {
      type: 'stdio',
      command: 'node',
      args: ['server.js'],
      env: {},
      timeoutMs: 1,
      startupTimeoutMs: 1,
      disabled: false,
    };
    const print = mcpServerFingerprint('s', base);
    expect(mcpServerFingerprint('s', { ...base, description: 'a note' })).toBe(print);
    expect(mcpServerFingerprint('s', { ...base, args: ['other.js'] })).not.toBe(print);
    expect(mcpServerFingerprint('t', base)).not.toBe(print);
    expect(mcpServerFingerprint('s', { ...base, env: { TOKEN: '${T}' } })).not.toBe(print);
  });
});

describe('expandVariables', () => {
  it('expands ${VAR} and ${VAR:-default}; an unset variable without a default is named', () => {
    expect(expandVariables('Bearer ${TOKEN}', { TOKEN: 'abc' })).toEqual({
      ok: true,
      text: 'Bearer abc',
    });
    expect(expandVariables('${PORT:-8080}/${HOST:-x}', { HOST: 'h' })).toEqual({
      ok: true,
      text: '8080/h',
    });
    expect(expandVariables('$HOME and ${', {})).toEqual({ ok: true, text: '$HOME and ${' });
    expect(expandVariables('${MISSING}', {})).toEqual({ ok: false, missing: 'MISSING' });
  });
});

describe('readMcpJsonText', () => {
  it('reads the servers of a .mcp.json as project servers; other fields and bad JSON are issues', () => {
    const good = readMcpJsonText('{"mcpServers": {"a": {"command": "x"}}}', '/p/.mcp.json');
    expect(good.issues).toEqual([]);
    expect(good.servers.map((server) => [server.name, server.layer, server.file])).toEqual([
      ['a', 'project', '/p/.mcp.json'],
    ]);
    const extra = readMcpJsonText('{"hooks": {}, "mcpServers": {}}', '/p/.mcp.json');
    expect(extra.issues.map((issue) => issue.path)).toEqual(['hooks']);
    const broken = readMcpJsonText('{"mcpServers": ', '/p/.mcp.json');
    expect(broken.issues[0]?.message).toMatch(/^invalid JSON at line 1, column/);
  });
});

describe('loadSettings: mcpServers of every layer and .mcp.json', () => {
  let root: string;
  let home: string;
  let project: string;
  let env: { HOOKWIRE_HOME: string; HOOKWIRE_MANAGED_SETTINGS: string };
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'hookwire-mcp-settings-'));
    home = join(root, 'home');
    project = join(root, 'project');
    env = { HOOKWIRE_HOME: home, HOOKWIRE_MANAGED_SETTINGS: join(root, 'managed.json') };
    await mkdir(project, { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const write = async (file: string, value: unknown): Promise<void> => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(value));
  };

  it('a later layer replaces a server of the same name; .mcp.json merges just before the project settings', async () => {
    await write(join(home, '.hookwire', 'settings.json'), {
      mcpServers: { shared: { command: 'user' }, mine: { command: 'user' } },
    });
    await write(join(project, '.mcp.json'), {
      mcpServers: { shared: { command: 'mcp-json' }, repo: { command: 'mcp-json' } },
    });
    await write(join(project, '.hookwire', 'settings.json'), {
      mcpServers: { repo: { command: 'project' } },
    });
    const settings = await loadSettings({ projectDir: project, env });
    expect(
      settings.mcpServers.map((server) => [
        server.name,
        server.config.type === 'stdio' ? server.config.command : '',
      ]),
    ).toEqual([
      ['shared', 'mcp-json'],
      ['mine', 'user'],
      ['repo', 'project'],
    ]);
    expect(settings.ignoredMcpServers).toEqual([]);
  });

  it('untrusted project servers are left out (never replacing yours) until their fingerprint is trusted', async () => {
    await write(join(home, '.hookwire', 'settings.json'), {
      mcpServers: { shared: { command: 'user' } },
    });
    await write(join(project, '.mcp.json'), {
      mcpServers: { shared: { command: 'repo' }, repo: { command: 'repo' } },
    });
    const untrusted = await loadSettings({
      projectDir: project,
      env,
      trust: { trusted: new Set(), trustAll: false },
    });
    expect(untrusted.mcpServers.map((server) => server.file)).toEqual([
      join(home, '.hookwire', 'settings.json'),
    ]);
    expect(untrusted.ignoredMcpServers.map((server) => server.name)).toEqual(['shared', 'repo']);

    const repo = untrusted.ignoredMcpServers[1];
    const trusted = await loadSettings({
      projectDir: project,
      env,
      trust: { trusted: new Set([repo?.fingerprint ?? '']), trustAll: false },
    });
    expect(trusted.mcpServers.map((server) => server.name)).toEqual(['shared', 'repo']);
    expect(trusted.ignoredMcpServers.map((server) => server.name)).toEqual(['shared']);
  });

  it('an invalid .mcp.json is a SettingsError naming the file and the path', async () => {
    await write(join(project, '.mcp.json'), { mcpServers: { web: { type: 'http' } } });
    const error = await loadSettings({ projectDir: project, env }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).message).toContain(
      `${join(project, '.mcp.json')}: mcpServers.web.url: missing required field "url"`,
    );
  });
});
