/**
 * How a durable turn fills its Restate journal (src/adapters/restate/journal-runner.ts): the
 * session object served in this process from an HTTP/2 endpoint registered with the real
 * restate-server (from npm, on loopback in its own mount namespace), the scripted model, an
 * in-process PreToolUse hook, a `rerun` tool and a `report` tool. The journal is read back through
 * the admin API's SQL endpoint. Skipped, saying why, where restate-server cannot run (not root).
 */
import type { Http2Server } from 'node:http2';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/loop/index.ts';
import { sessionObject } from '../../src/restate.ts';
import { createScriptedModel, type ScriptedTurn } from '../../src/testing.ts';
import {
  journalOf,
  restateUnavailable,
  serveInProcess,
  startRestateServer,
  type RestateServer,
} from '../support/restate-cluster.ts';

const unavailable = restateUnavailable();
if (unavailable !== undefined) console.warn(`journal-entry tests skipped: ${unavailable}`);

/** A `peek` call (recovery `rerun`), then an `echo` call (`report`, the default), then an answer. */
const SCRIPT: readonly ScriptedTurn[] = [
  {
    blocks: [{ type: 'tool_call', id: 'p1', name: 'peek', parameters: { text: 'look' } }],
    finishReason: 'tool_calls',
  },
  {
    blocks: [{ type: 'tool_call', id: 'e1', name: 'echo', parameters: { text: 'write' } }],
    finishReason: 'tool_calls',
  },
  { blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop' },
];

describe.skipIf(unavailable !== undefined)('the journal of a durable turn', () => {
  let root: string;
  let server: RestateServer;
  let endpoint: Http2Server;
  /** What ran, in order: tool calls and PreToolUse fires. */
  const ran: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hookwire-restate-journal-'));
    const tool = (name: string) => ({
      declaration: {
        name,
        parameters: {
          type: 'object' as const,
          properties: { text: { type: 'string' as const } },
          required: ['text'],
        },
      },
      execute: (args: unknown) => {
        ran.push(`${name} ${(args as { text: string }).text}`);
        return Promise.resolve(args);
      },
    });
    const object = sessionObject({
      recovery: { peek: 'rerun' },
      agent: () => ({
        model: createScriptedModel(SCRIPT),
        tools: new ToolRegistry([tool('peek'), tool('echo')]),
        hooks: {
          name: 'log',
          onToolCall: (_context, event) => {
            ran.push(`PreToolUse ${event.toolName}`);
            return { kind: 'run' };
          },
        },
        cwd: root,
      }),
    });
    server = await startRestateServer(join(root, 'restate'));
    endpoint = await serveInProcess(server.admin, [object]);
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await new Promise((done) => endpoint.close(done));
    await rm(root, { recursive: true, force: true });
  });

  it('shares entries: a model call with the hook fire after it, a rerun tool with its neighbours, a report tool alone; the last entry is persisted before the output', async () => {
    const response = await fetch(`${server.ingress}/hookwire-session/layout/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'go' }),
    });
    const result = (await response.json()) as { status?: string; result?: string };
    expect(result).toMatchObject({ status: 'completed', result: 'done' });
    expect(ran).toEqual(['PreToolUse peek', 'peek look', 'PreToolUse echo', 'echo write']);

    const journal = await journalOf(server.admin, 'hookwire-session/layout/run');
    const runs = journal
      .filter((entry) => entry.type === 'Command: Run')
      .map((entry) => entry.name);
    const completions = journal
      .filter((entry) => entry.type === 'Notification: Run')
      .map((entry) => (entry.value as { step: string }[]).map((record) => record.step));
    // Each entry is named after its first step and holds its steps' outcomes, in order.
    expect(runs).toEqual([
      'model 1 (turn 1)',
      'tool 1 peek p1',
      'tool 2 echo e1',
      'model 3 (turn 1)',
    ]);
    expect(completions).toEqual([
      ['model 1 (turn 1)', 'hook 1 toolCall'],
      ['tool 1 peek p1', 'model 2 (turn 1)', 'hook 2 toolCall'],
      ['tool 2 echo e1'],
      ['model 3 (turn 1)'],
    ]);
    // The last entry, closed without waiting for Restate's answer, still precedes the state and
    // the output in the journal: a retry after the output replays it, never runs it again.
    const types = journal.map((entry) => entry.type);
    expect(types.lastIndexOf('Notification: Run')).toBeLessThan(types.indexOf('Command: Output'));
    expect(types.lastIndexOf('Notification: Run')).toBeLessThan(
      types.lastIndexOf('Command: SetState'),
    );
  }, 60_000);
});
