/**
 * Issue 14's "Done when", end to end through the real `hookwire run` (scripted model, real
 * command hook, real stdio MCP server written with the SDK): ONE PreToolUse guard, configured
 * once in a settings file with the matcher `shell|mcp__srv__.*`, holds on the main agent's shell
 * and MCP calls and on the shell and MCP calls of its subagents (a typed one whose `tools` list
 * names the server with a pattern, and the default `general-purpose` one, which inherits every
 * tool). Effects are asserted, not just answers: the shell command's marker file does not exist,
 * the server's call log shows that no denied call reached it, and the denial is what the model's
 * next request carries, in the parent's conversation and in each child's.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  jsonLines,
  readLog,
  runScripted,
  say,
  writeHookScript,
  writeJson,
} from './support.ts';

const STDIO_SERVER = resolve(import.meta.dirname, '..', 'fixtures', 'mcp', 'stdio-server.ts');

/** Logs every payload; denies (exit 2, reason on stderr) any call whose input mentions FORBIDDEN. */
const GUARD_HOOK = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(payload) + '\\n');
if (JSON.stringify(payload.tool_input).includes('FORBIDDEN')) {
  process.stderr.write('guard: FORBIDDEN is refused for ' + payload.tool_name);
  process.exit(2);
}
`;

interface RecordedRequest {
  readonly contents: readonly { speaker: string; blocks: readonly Record<string, unknown>[] }[];
  readonly tools?: readonly { name: string }[];
  readonly settings?: { systemInstruction?: unknown };
}

/** The text of the last message of a recorded request (the tool results the model just got). */
function lastMessage(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.contents.at(-1) ?? null);
}

describe('one PreToolUse guard, configured once, holds everywhere (hookwire run)', () => {
  it("denies the main agent's shell and MCP calls and every subagent's, with agent_id/agent_type and mcp_context in the payloads", async () => {
    const sandbox = await createSandbox();
    const guardLog = join(sandbox.root, 'guard.jsonl');
    const serverLog = join(sandbox.root, 'server-calls.jsonl');
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', GUARD_HOOK, [guardLog]);
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      mcpServers: { srv: { command: process.execPath, args: [STDIO_SERVER, 'srv', serverLog] } },
      hooks: {
        PreToolUse: [
          { matcher: 'shell|mcp__srv__.*', hooks: [{ type: 'command', command: guard }] },
        ],
      },
    });
    await mkdir(join(sandbox.project, '.hookwire', 'agents'));
    await writeFile(
      join(sandbox.project, '.hookwire', 'agents', 'worker.md'),
      '---\ndescription: Runs commands and keeps notes\ntools: shell, mcp__srv__*\n---\nYou are the worker.\n',
    );
    const marker = (who: string) => join(sandbox.project, `${who}.marker`);
    const touch = (who: string) => ({ command: `touch ${who}.marker # FORBIDDEN` });
    const outcome = await runScripted(
      sandbox,
      [
        /* 0 parent */ callTool('p1', 'shell', touch('parent')),
        /* 1 parent */ callTool('p2', 'mcp__srv__write_note', { title: 'FORBIDDEN', text: 'p' }),
        /* 2 parent */ callTool('p3', 'agent', {
          description: 'typed worker',
          prompt: 'Touch the marker and note it.',
          agent_type: 'worker',
        }),
        /* 3 worker */ callTool('w1', 'shell', touch('worker')),
        /* 4 worker */ callTool('w2', 'mcp__srv__write_note', { title: 'FORBIDDEN', text: 'w' }),
        /* 5 worker */ callTool('w3', 'mcp__srv__write_note', { title: 'allowed', text: 'w' }),
        /* 6 worker */ say('worker: both refused, one note saved'),
        /* 7 parent */ callTool('p4', 'agent', { description: 'default', prompt: 'Echo it.' }),
        /* 8 general */ callTool('g1', 'shell', touch('general')),
        /* 9 general */ callTool('g2', 'mcp__srv__echo', { text: 'FORBIDDEN' }),
        /* 10 general */ say('general: refused'),
        /* 11 parent */ say('done'),
      ],
      { extra: ['--output-format', 'stream-json'] },
    );
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);

    // Effects: no marker file, and the server saw exactly the one allowed call.
    for (const who of ['parent', 'worker', 'general']) expect(existsSync(marker(who))).toBe(false);
    expect(await readLog(serverLog)).toEqual([
      { server: 'srv', tool: 'write_note', args: { title: 'allowed', text: 'w' } },
    ]);

    // The guard saw every call, the children's with their identity, MCP calls with mcp_context.
    const seen = await readLog(guardLog);
    const srvContext = {
      server_name: 'srv',
      command: process.execPath,
      args: [STDIO_SERVER, 'srv', serverLog],
      cwd: sandbox.project,
    };
    expect(
      seen.map((payload) => [
        payload['tool_name'],
        payload['agent_type'],
        payload['mcp_context'] === undefined ? undefined : payload['mcp_context'],
      ]),
    ).toEqual([
      ['shell', undefined, undefined],
      ['mcp__srv__write_note', undefined, { ...srvContext, tool_name: 'write_note' }],
      ['shell', 'worker', undefined],
      ['mcp__srv__write_note', 'worker', { ...srvContext, tool_name: 'write_note' }],
      ['mcp__srv__write_note', 'worker', { ...srvContext, tool_name: 'write_note' }],
      ['shell', 'general-purpose', undefined],
      ['mcp__srv__echo', 'general-purpose', { ...srvContext, tool_name: 'echo' }],
    ]);
    expect(seen[0]).not.toHaveProperty('agent_id');
    expect(seen[1]).not.toHaveProperty('agent_id');
    const workerId = seen[2]?.['agent_id'];
    const generalId = seen[5]?.['agent_id'];
    expect(workerId).toMatch(/^agent-/);
    expect(generalId).toMatch(/^agent-/);
    expect(generalId).not.toBe(workerId);
    expect(seen.slice(2, 5).map((payload) => payload['agent_id'])).toEqual([
      workerId,
      workerId,
      workerId,
    ]);
    expect(seen[6]?.['agent_id']).toBe(generalId);
    // The hook belongs to the one session: the children's payloads name the parent's session.
    expect(new Set(seen.map((payload) => payload['session_id'])).size).toBe(1);

    // What the model saw next, call by call (the scripted turns above, in order).
    const sent = outcome.requests as unknown as RecordedRequest[];
    expect(sent).toHaveLength(12);
    const refused = (tool: string) => `guard: FORBIDDEN is refused for ${tool}`;
    expect(lastMessage(sent[1])).toContain(refused('shell'));
    expect(lastMessage(sent[2])).toContain(refused('mcp__srv__write_note'));
    expect(lastMessage(sent[4])).toContain(refused('shell'));
    expect(lastMessage(sent[5])).toContain(refused('mcp__srv__write_note'));
    expect(lastMessage(sent[6])).toContain('saved allowed');
    expect(lastMessage(sent[9])).toContain(refused('shell'));
    expect(lastMessage(sent[10])).toContain(refused('mcp__srv__echo'));
    // The children's requests are their own conversations, with their type's tools: the worker
    // gets shell and the srv tools (by its pattern) and no agent tool; general-purpose inherits
    // every tool but agent.
    expect(sent[3]?.contents.map((message) => message.speaker)).toEqual(['human']);
    const toolNames = (request: RecordedRequest | undefined) =>
      (request?.tools ?? []).map((tool) => tool.name);
    expect(toolNames(sent[3])).toEqual([
      'shell',
      'mcp__srv__write_note',
      'mcp__srv__echo',
      'mcp__srv__pixel',
      'mcp__srv__stats',
      'mcp__srv__fail',
      'mcp__srv__start_daemon',
    ]);
    expect(toolNames(sent[8])).toEqual(toolNames(sent[0]).filter((name) => name !== 'agent'));
    expect(toolNames(sent[8])).toContain('mcp__srv__echo');

    // The parent's agent calls answered with the children's reports.
    const results = jsonLines(outcome.stdout).filter((line) => line['type'] === 'tool-result');
    expect(results.map((line) => [line['toolCallId'], line['error'] ?? line['result']])).toEqual([
      ['p1', expect.stringContaining(refused('shell'))],
      ['p2', expect.stringContaining(refused('mcp__srv__write_note'))],
      ['p3', 'worker: both refused, one note saved'],
      ['p4', 'general: refused'],
    ]);
  });
});
