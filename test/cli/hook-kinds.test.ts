/**
 * The process, http and prompt hook kinds end to end: settings files read by the real
 * `hookwire run` on the scripted model, real hook processes (test/fixtures/process-hooks/
 * shell-guard.mjs), real loopback servers, and the effects of the shell commands the hooks guard.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts';
import { completion } from '../fixtures/openai/chat-scenarios.ts';
import {
  runShellCommands,
  callTool,
  createSandbox,
  jsonLines,
  runCli,
  say,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const GUARD = fileURLToPath(new URL('../fixtures/process-hooks/shell-guard.mjs', import.meta.url));

/** True while `pid` runs (a zombie awaiting its reaper counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

interface GuardLog {
  /** `[pid, child pid]` per process start, in order. */
  readonly starts: [number, number][];
  /** `[pid, event, command]` per request, in order. */
  readonly requests: [number, string, string][];
}

async function guardLog(file: string): Promise<GuardLog> {
  const lines = (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '');
  const starts: [number, number][] = [];
  const requests: [number, string, string][] = [];
  for (const line of lines) {
    const [kind, pid, second, ...rest] = line.split(' ');
    if (kind === 'start') starts.push([Number(pid), Number(second)]);
    else requests.push([Number(pid), second ?? '', rest.join(' ')]);
  }
  return { starts, requests };
}

/** Runs one `hookwire run` whose model makes the given shell calls, then answers "done". */
async function runShellCalls(
  sandbox: Sandbox,
  settings: unknown,
  commands: readonly string[],
  env: NodeJS.ProcessEnv = sandbox.env,
): ReturnType<typeof runShellCommands> {
  const file = await writeJson(join(sandbox.root, 'settings.json'), settings);
  return runShellCommands(sandbox, commands, ['--settings', file], env);
}

/** Settings with the shell guard as a process hook on PreToolUse (and SessionEnd). */
function guardSettings(log: string, fields: Record<string, unknown> = {}): unknown {
  const hook = {
    type: 'process',
    command: `HOOK_LOG=${JSON.stringify(log)} ${JSON.stringify(process.execPath)} ${JSON.stringify(GUARD)}`,
    name: 'shell-guard',
    ...fields,
  };
  return {
    hooks: {
      PreToolUse: [{ matcher: 'shell', hooks: [hook] }],
      SessionEnd: [{ hooks: [{ ...hook, failClosed: undefined }] }],
    },
  };
}

function expectNoProcessLeft(log: GuardLog): void {
  for (const [pid, child] of log.starts) {
    expect(isAlive(pid), `hook process ${pid}`).toBe(false);
    expect(isAlive(child), `its child ${child}`).toBe(false);
  }
}

describe('process hooks through hookwire run', () => {
  it('guard shell calls from one long-lived process: a denied command has no effect', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'guard.log');
    const run = await runShellCalls(sandbox, guardSettings(log), [
      'touch allowed.txt',
      'touch denied.txt # DENY',
      'touch also-allowed.txt',
    ]);
    expect(run.code).toBe(0);
    expect(existsSync(join(sandbox.project, 'allowed.txt'))).toBe(true);
    expect(existsSync(join(sandbox.project, 'denied.txt'))).toBe(false);
    expect(existsSync(join(sandbox.project, 'also-allowed.txt'))).toBe(true);
    expect(JSON.stringify(run.results[1])).toContain('denied: touch denied.txt # DENY');
    const entries = await guardLog(log);
    // One process answered every event, SessionEnd last; it is gone once the run is.
    expect(entries.starts).toHaveLength(1);
    const pid = entries.starts[0]?.[0];
    expect(entries.requests.map(([who, event]) => [who, event])).toEqual([
      [pid, 'PreToolUse'],
      [pid, 'PreToolUse'],
      [pid, 'PreToolUse'],
      [pid, 'SessionEnd'],
    ]);
    expectNoProcessLeft(entries);
  });

  it('restarts a process that crashes mid-session: the next event is answered', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'guard.log');
    const run = await runShellCalls(sandbox, guardSettings(log), [
      'touch first.txt # CRASH',
      'touch second.txt # DENY',
      'touch third.txt',
    ]);
    expect(run.code).toBe(0);
    // The crash fails open (a warning): the first command runs; the restarted process denies the
    // second and allows the third.
    const warnings = jsonLines(run.stdout).filter((line) =>
      JSON.stringify(line).includes('shell-guard'),
    );
    expect(warnings.length, run.stdout).toBeGreaterThan(0);
    expect(existsSync(join(sandbox.project, 'first.txt'))).toBe(true);
    expect(existsSync(join(sandbox.project, 'second.txt'))).toBe(false);
    expect(existsSync(join(sandbox.project, 'third.txt'))).toBe(true);
    const entries = await guardLog(log);
    expect(entries.starts).toHaveLength(2);
    const [first, second] = entries.starts.map(([pid]) => pid);
    expect(entries.requests.map(([who, event]) => [who, event])).toEqual([
      [first, 'PreToolUse'],
      [second, 'PreToolUse'],
      [second, 'PreToolUse'],
      [second, 'SessionEnd'],
    ]);
    expectNoProcessLeft(entries);
  });

  it('a hung failClosed guard denies at its deadline; its process is killed and replaced', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'guard.log');
    const run = await runShellCalls(
      sandbox,
      guardSettings(log, { timeout: '2s', failClosed: true }),
      ['touch hung.txt # HANG', 'touch after.txt'],
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(sandbox.project, 'hung.txt'))).toBe(false);
    expect(JSON.stringify(run.results[0])).toContain('timed out after 2s');
    expect(existsSync(join(sandbox.project, 'after.txt'))).toBe(true);
    const entries = await guardLog(log);
    expect(entries.starts).toHaveLength(2);
    const [hung, fresh] = entries.starts.map(([pid]) => pid);
    expect(entries.requests.map(([who, event]) => [who, event])).toEqual([
      [hung, 'PreToolUse'],
      [fresh, 'PreToolUse'],
      [fresh, 'SessionEnd'],
    ]);
    expectNoProcessLeft(entries);
  });

  it('"start": "session" starts the process before the first event, and lists it in hooks list', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'guard.log');
    const settings = guardSettings(log, { start: 'session' });
    const run = await runShellCalls(sandbox, settings, []);
    expect(run.code).toBe(0);
    const entries = await guardLog(log);
    // No tool call: only SessionEnd asked it, yet it was started (at SessionStart).
    expect(entries.starts).toHaveLength(1);
    expect(entries.requests.map(([, event]) => event)).toEqual(['SessionEnd']);
    expectNoProcessLeft(entries);
    const listed = await runCli(
      ['hooks', 'list', '--settings', join(sandbox.root, 'settings.json'), '--json'],
      { env: sandbox.env, cwd: sandbox.project },
    );
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(GUARD);
  });
});

interface Received {
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

/** A loopback server answering every POST with `answer(body)` (status 200, JSON). */
async function startHookServer(
  answer: (body: Record<string, unknown>) => unknown,
): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push({ url: request.url ?? '', headers: request.headers, body });
      const reply = answer(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(reply === undefined ? '' : JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received };
}

describe('http hooks through hookwire run', () => {
  let server: Server | undefined;
  afterEach(async () => {
    const closing = server;
    server = undefined;
    if (closing !== undefined)
      await new Promise<void>((resolve) => {
        closing.close(() => {
          resolve();
        });
      });
  });

  it('POST each payload to the server, whose answer denies; headers expand allowed variables only', async () => {
    const hook = await startHookServer((body) => {
      const command = (body['tool_input'] as { command?: string } | undefined)?.command ?? '';
      return command.includes('DENY') ? { decision: 'deny', reason: 'the server says no' } : {};
    });
    server = hook.server;
    const sandbox = await createSandbox();
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'shell',
            hooks: [
              {
                type: 'http',
                url: hook.url,
                headers: { authorization: 'Bearer $HOOK_TOKEN', 'x-other': '$SECRET_TOKEN' },
                allowedEnvVars: ['HOOK_TOKEN'],
              },
            ],
          },
        ],
      },
    };
    const run = await runShellCalls(
      sandbox,
      settings,
      ['touch kept.txt', 'touch refused.txt # DENY'],
      { ...sandbox.env, HOOK_TOKEN: 'token-1', SECRET_TOKEN: 'never-sent' },
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(sandbox.project, 'kept.txt'))).toBe(true);
    expect(existsSync(join(sandbox.project, 'refused.txt'))).toBe(false);
    expect(JSON.stringify(run.results[1])).toContain('the server says no');
    expect(hook.received.map((request) => request.body['hook_event_name'])).toEqual([
      'PreToolUse',
      'PreToolUse',
    ]);
    expect(hook.received[0]?.body['tool_input']).toEqual({ command: 'touch kept.txt' });
    expect(hook.received[0]?.headers['authorization']).toBe('Bearer token-1');
    expect(hook.received[0]?.headers['x-other']).toBe('');
  });
});

describe('prompt hooks through hookwire run', () => {
  let provider: LoopbackServer | undefined;
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });

  it("are judged by the run's scripted model: not ok denies with the reason", async () => {
    const sandbox = await createSandbox();
    const file = await writeJson(join(sandbox.root, 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'shell',
            hooks: [{ type: 'prompt', prompt: 'May this run? $ARGUMENTS', name: 'judge' }],
          },
        ],
      },
    });
    // The judge is the run's model: its answer is the script's next turn.
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('c0', 'shell', { command: 'touch judged.txt' }),
      say('{"ok": false, "reason": "no files today"}'),
      say('done'),
    ]);
    const outcome = await runCli(
      [
        'run',
        'go',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--settings',
        file,
        '--output-format',
        'stream-json',
      ],
      { env: sandbox.env },
    );
    expect(outcome.code).toBe(0);
    expect(existsSync(join(sandbox.project, 'judged.txt'))).toBe(false);
    const result = jsonLines(outcome.stdout).find((line) => line['type'] === 'tool-result');
    expect(JSON.stringify(result)).toContain('no files today');
  });

  it('are judged by a provider model on a loopback server (model: PROVIDER:MODEL)', async () => {
    provider = await startLoopbackServer();
    provider.reply({
      type: 'json',
      body: completion({ content: '{"ok": false, "reason": "the judge refuses"}' }, 'stop'),
    });
    const sandbox = await createSandbox();
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'shell',
            hooks: [
              {
                type: 'prompt',
                prompt: 'Judge: $ARGUMENTS',
                model: 'openai:gpt-judge',
                failClosed: true,
              },
            ],
          },
        ],
      },
    };
    const run = await runShellCalls(sandbox, settings, ['touch remote.txt'], {
      ...sandbox.env,
      OPENAI_BASE_URL: provider.baseURL,
      OPENAI_API_KEY: 'test-key',
    });
    expect(run.code).toBe(0);
    expect(existsSync(join(sandbox.project, 'remote.txt'))).toBe(false);
    expect(JSON.stringify(run.results[0])).toContain('the judge refuses');
    const body = provider.lastRequest().body as { model: string; messages: unknown[] };
    expect(body.model).toBe('gpt-judge');
    expect(JSON.stringify(body.messages)).toContain('touch remote.txt');
  });
});
