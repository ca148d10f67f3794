/**
 * MCP servers through the real `hookwire run` (scripted model): a stdio server process and a
 * streamable HTTP server on 127.0.0.1, both written with the SDK's server side; one PreToolUse
 * guard configured once holds on built-in and MCP tools alike; matchers match the full
 * `mcp__SERVER__TOOL` name; payloads carry `mcp_context`; project servers follow the trust
 * rules; `hookwire mcp list` shows servers, states and tools.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpMcpServer, type TestHttpMcpServer } from '../fixtures/mcp/http-server.ts';
import {
  LOGGER_HOOK,
  callTool,
  createSandbox,
  jsonLines,
  readLog,
  runCli,
  runToolCalls,
  say,
  scriptedRunArgs,
  writeScript,
  writeHookScript,
  writeJson,
  type Sandbox,
} from './support.ts';

const STDIO_SERVER = resolve(import.meta.dirname, '..', 'fixtures', 'mcp', 'stdio-server.ts');

/** Logs every payload; denies (exit 2) any call whose input mentions FORBIDDEN. */
const GUARD_HOOK = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(payload) + '\\n');
if (JSON.stringify(payload.tool_input).includes('FORBIDDEN')) {
  process.stderr.write('the guard refuses FORBIDDEN things');
  process.exit(2);
}
`;

function stdioServer(name: string, log: string): Record<string, unknown> {
  return { command: process.execPath, args: [STDIO_SERVER, name, log] };
}

async function serverCalls(
  log: string,
): Promise<{ server: string; tool: string; args: unknown }[]> {
  return (await readLog(log)) as unknown as { server: string; tool: string; args: unknown }[];
}

describe('MCP tools in hookwire run', () => {
  let http: TestHttpMcpServer | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it('one PreToolUse guard holds on built-in and MCP tools (stdio and HTTP); a mcp__notes__.* matcher sees only that server', async () => {
    const sandbox = await createSandbox();
    const calls = join(sandbox.root, 'server-calls.jsonl');
    const guardLog = join(sandbox.root, 'guard.jsonl');
    const notesLog = join(sandbox.root, 'notes-matcher.jsonl');
    const failureLog = join(sandbox.root, 'failures.jsonl');
    http = await startHttpMcpServer('web', calls);
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', GUARD_HOOK, [guardLog]);
    const notesLogger = await writeHookScript(sandbox.root, 'notes.mjs', LOGGER_HOOK, [notesLog]);
    const failureLogger = await writeHookScript(sandbox.root, 'fail.mjs', LOGGER_HOOK, [
      failureLog,
    ]);
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      mcpServers: { notes: stdioServer('notes', calls), web: { type: 'http', url: http.url } },
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: guard }] },
          { matcher: 'mcp__notes__.*', hooks: [{ type: 'command', command: notesLogger }] },
        ],
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: failureLogger }] }],
      },
    });

    const { results, code, stderr } = await runToolCalls(sandbox, [
      ['shell', { command: 'echo FORBIDDEN' }],
      ['mcp__notes__write_note', { title: 'FORBIDDEN', text: 'launch codes' }],
      ['mcp__notes__write_note', { title: 'groceries', text: 'milk' }],
      ['mcp__web__echo', { text: 'FORBIDDEN' }],
      ['mcp__web__echo', { text: 'hello' }],
      ['mcp__notes__fail', {}],
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(results.map((result) => [result.toolName, result.error ?? result.result])).toEqual([
      ['shell', expect.stringContaining('the guard refuses FORBIDDEN things')],
      ['mcp__notes__write_note', expect.stringContaining('the guard refuses FORBIDDEN things')],
      ['mcp__notes__write_note', 'saved groceries'],
      ['mcp__web__echo', expect.stringContaining('the guard refuses FORBIDDEN things')],
      ['mcp__web__echo', 'echo: hello'],
      ['mcp__notes__fail', 'the disk is full'],
    ]);
    // The denied calls never reached a server.
    expect(await serverCalls(calls)).toEqual([
      { server: 'notes', tool: 'write_note', args: { title: 'groceries', text: 'milk' } },
      { server: 'web', tool: 'echo', args: { text: 'hello' } },
      { server: 'notes', tool: 'fail', args: {} },
    ]);

    const notesContext = {
      server_name: 'notes',
      command: process.execPath,
      args: [STDIO_SERVER, 'notes', calls],
      cwd: sandbox.project,
    };
    const guarded = await readLog(guardLog);
    expect(guarded.map((payload) => [payload['tool_name'], payload['mcp_context']])).toEqual([
      ['shell', undefined],
      ['mcp__notes__write_note', { ...notesContext, tool_name: 'write_note' }],
      ['mcp__notes__write_note', { ...notesContext, tool_name: 'write_note' }],
      ['mcp__web__echo', { server_name: 'web', tool_name: 'echo', url: http.url }],
      ['mcp__web__echo', { server_name: 'web', tool_name: 'echo', url: http.url }],
      ['mcp__notes__fail', { ...notesContext, tool_name: 'fail' }],
    ]);
    // The matcher sees the notes server's calls only, and (groups compose in order, a deny
    // short-circuits) only those the guard let through.
    expect(
      (await readLog(notesLog)).map((payload) => [payload['tool_name'], payload['tool_input']]),
    ).toEqual([
      ['mcp__notes__write_note', { title: 'groceries', text: 'milk' }],
      ['mcp__notes__fail', {}],
    ]);
    const failures = await readLog(failureLog);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'mcp__notes__fail',
      error: 'the disk is full',
      mcp_context: { ...notesContext, tool_name: 'fail' },
    });
  });

  it('a server that fails to start is one warning on stderr; the run goes on without its tools', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      mcpServers: { broken: { command: join(sandbox.root, 'no-such-server') } },
    });
    const { results, code, stderr } = await runToolCalls(sandbox, [['mcp__broken__anything', {}]]);
    expect(code).toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^hookwire: MCP server "broken" \(.*settings\.json\) did not start: .*ENOENT.*; its tools are not available$/,
    );
    expect(results[0]?.error).toContain('unknown tool "mcp__broken__anything"');
  });
});

describe('MCP answers over the size limit', () => {
  it('an 11 MiB answer fails that call naming the limit; the run goes on, SessionEnd fires, exit 0', async () => {
    const sandbox = await createSandbox();
    const calls = join(sandbox.root, 'calls.jsonl');
    const ended = join(sandbox.root, 'ended.jsonl');
    const logger = await writeHookScript(sandbox.root, 'log.mjs', LOGGER_HOOK, [ended]);
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      mcpServers: {
        notes: { ...stdioServer('notes', calls), env: { HOOKWIRE_TEST_MCP_HUGE_TOOL: '1' } },
      },
      hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: logger }] }] },
    });
    const { results, code, stderr } = await runToolCalls(sandbox, [
      ['mcp__notes__huge', { mib: 11 }],
      ['mcp__notes__echo', { text: 'after' }],
    ]);
    expect(stderr).not.toContain('ReadBuffer');
    expect(code).toBe(0);
    expect(results.map((result) => [result.toolName, result.error ?? result.result])).toEqual([
      [
        'mcp__notes__huge',
        expect.stringMatching(/over hookwire's limit of 10 MiB on one MCP message/),
      ],
      ['mcp__notes__echo', 'echo: after'],
    ]);
    expect((await serverCalls(calls)).map((call) => call.tool)).toEqual(['huge', 'echo']);
    expect(await readLog(ended)).toHaveLength(1);
  });
});

describe('an MCP server that dies mid-session', () => {
  it('is reported once on stderr and in the result, restarted, and answers the next call', async () => {
    const sandbox = await createSandbox();
    const calls = join(sandbox.root, 'calls.jsonl');
    const exited = join(sandbox.root, 'exited.pid');
    // Holds the second call until the first server process is gone (no race with its exit).
    const waitGone = await writeHookScript(
      sandbox.root,
      'wait-gone.mjs',
      `
import { readFileSync } from 'node:fs';
const pid = Number(readFileSync(process.argv[2], 'utf8'));
const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
while (alive()) await new Promise((resolve) => setTimeout(resolve, 20));
`,
      [exited],
    );
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      mcpServers: {
        notes: {
          ...stdioServer('notes', calls),
          env: { HOOKWIRE_TEST_MCP_EXIT_AFTER_CALL: exited },
        },
      },
      hooks: {
        PreToolUse: [
          { matcher: 'mcp__notes__echo', hooks: [{ type: 'command', command: waitGone }] },
        ],
      },
    });
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('c0', 'mcp__notes__write_note', { title: 'a', text: 'b' }),
      callTool('c1', 'mcp__notes__echo', { text: 'two' }),
      callTool('c2', 'mcp__notes__echo', { text: 'three' }),
      say('done'),
    ]);
    const { code, stdout, stderr } = await runCli(
      scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json']),
      { env: sandbox.env },
    );
    expect(code).toBe(0);
    const lines = jsonLines(stdout);
    expect(
      lines
        .filter((line) => line['type'] === 'tool-result')
        .map((line) => line['error'] ?? line['result']),
    ).toEqual(['saved a', 'echo: two', 'echo: three']);
    const reports = stderr.split('\n').filter((line) => line.includes('exited mid-session'));
    expect(reports).toEqual([
      expect.stringMatching(
        /^hookwire: MCP server "notes" \(.*settings\.json\) exited mid-session \(exited with code 7\); restarting it/,
      ),
    ]);
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      status: 'completed',
      mcpServerExits: [
        { server: 'notes', exit: 'exited with code 7', outcome: 'restarted', attempts: 1 },
      ],
    });
    expect((await serverCalls(calls)).map((call) => call.tool)).toEqual([
      'write_note',
      'echo',
      'echo',
    ]);
  });
});

describe('project MCP servers follow the trust rules', () => {
  async function untrustedSandbox(): Promise<{
    sandbox: Sandbox;
    env: NodeJS.ProcessEnv;
    pidFile: string;
  }> {
    const sandbox = await createSandbox();
    const env = { ...sandbox.env };
    delete env['HOOKWIRE_TRUST_PROJECT'];
    const pidFile = join(sandbox.root, 'server.pid');
    await writeJson(join(sandbox.project, '.mcp.json'), {
      mcpServers: {
        repo: {
          command: process.execPath,
          args: [STDIO_SERVER, 'repo'],
          env: { HOOKWIRE_TEST_MCP_PID_FILE: pidFile },
        },
      },
    });
    return { sandbox, env, pidFile };
  }

  it('an untrusted .mcp.json server does not start, with one line saying how to trust it; once trusted it starts', async () => {
    const { sandbox, env, pidFile } = await untrustedSandbox();
    const untrusted = await runToolCalls(sandbox, [['mcp__repo__echo', { text: 'hi' }]], [], env);
    expect(untrusted.code).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    const lines = untrusted.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^hookwire: skipped 1 project MCP server \(repo\) as not trusted; review and trust them with: hookwire hooks trust --cwd /,
      ),
    ]);
    expect(untrusted.results[0]?.error).toContain('unknown tool "mcp__repo__echo"');

    const listed = await runCli(['hooks', 'trust', '--cwd', sandbox.project], { env });
    expect(listed.code).toBe(1);
    expect(listed.stdout).toContain('mcp      .mcp.json at mcpServers.repo');
    const trust = await runCli(['hooks', 'trust', '--yes', '--cwd', sandbox.project], { env });
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain('Trusted 1 entry');

    const trusted = await runToolCalls(sandbox, [['mcp__repo__echo', { text: 'hi' }]], [], env);
    expect(trusted.stderr).toBe('');
    expect(trusted.results[0]?.result).toBe('echo: hi');
    expect(existsSync(pidFile)).toBe(true);

    // A changed server is a new server: untrusted again.
    const mcpJson = JSON.parse(await readFile(join(sandbox.project, '.mcp.json'), 'utf8')) as {
      mcpServers: { repo: { args: string[] } };
    };
    mcpJson.mcpServers.repo.args.push('--changed');
    await writeFile(join(sandbox.project, '.mcp.json'), JSON.stringify(mcpJson));
    const changed = await runToolCalls(sandbox, [], [], env);
    expect(changed.stderr).toContain('skipped 1 project MCP server (repo) as not trusted');
  });

  it('--trust-project starts them for one run', async () => {
    const { sandbox, env, pidFile } = await untrustedSandbox();
    const run = await runToolCalls(
      sandbox,
      [['mcp__repo__echo', { text: 'hi' }]],
      ['--trust-project'],
      env,
    );
    expect(run.stderr).toBe('');
    expect(run.results[0]?.result).toBe('echo: hi');
    expect(existsSync(pidFile)).toBe(true);
  });
});

describe('hookwire mcp list', () => {
  it('shows each server, its state and its tools; exit 1 when one failed', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      mcpServers: {
        notes: { command: process.execPath, args: [STDIO_SERVER, 'notes'] },
        broken: {
          command: process.execPath,
          args: [STDIO_SERVER],
          env: { HOOKWIRE_TEST_MCP_CRASH: '1' },
        },
        off: { command: 'anything', disabled: true },
      },
    });
    const text = await runCli(['mcp', 'list', '--cwd', sandbox.project], { env: sandbox.env });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^notes {2}stdio {2}connected, 6 tools in \d+ ms$/m);
    expect(text.stdout).toContain('  - mcp__notes__write_note: Save a note under a title.');
    expect(text.stdout).toMatch(/^broken {2}stdio {2}failed: .*cannot open the database/m);
    expect(text.stdout).toMatch(/^off {2}stdio {2}disabled$/m);
    expect(text.stdout).toContain('  from .hookwire/settings.json at mcpServers.notes');

    const json = await runCli(['mcp', 'list', '--json', '--cwd', sandbox.project], {
      env: sandbox.env,
    });
    const rows = JSON.parse(json.stdout) as {
      name: string;
      state: string;
      tools: { name: string }[];
    }[];
    expect(rows.map((row) => [row.name, row.state])).toEqual([
      ['notes', 'connected'],
      ['broken', 'failed'],
      ['off', 'disabled'],
    ]);
    expect(rows[0]?.tools.map((tool) => tool.name)).toEqual([
      'mcp__notes__write_note',
      'mcp__notes__echo',
      'mcp__notes__pixel',
      'mcp__notes__stats',
      'mcp__notes__fail',
      'mcp__notes__start_daemon',
    ]);
  });

  it('a settings error names the file, the JSON path and the fix', async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.mcp.json'), {
      mcpServers: { web: { type: 'http', url: 'ftp://example' }, bad__name: { command: 'x' } },
    });
    const outcome = await runCli(['mcp', 'list', '--cwd', sandbox.project], { env: sandbox.env });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('.mcp.json: mcpServers.web.url');
    expect(outcome.stderr).toContain('is not an http(s) URL');
    expect(outcome.stderr).toContain('mcpServers.bad__name');
    expect(outcome.stderr).toContain('mcp__NAME__TOOL');
  });
});
