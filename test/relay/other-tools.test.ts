/**
 * `hookwire relay` for Codex, GitHub Copilot CLI and Cursor, by their documented files, payloads
 * and answers (fixtures written from their hooks references; the real tools are not run here:
 * see decision 0035 for why): `relay install --into` writes `.codex/hooks.json`,
 * `.github/hooks/hookwire.json` and `.cursor/hooks.json` beside the user's own hooks and
 * `uninstall --from` gives the file back byte for byte; the relay client (native, and the Node
 * one) fed each tool's payloads answers in that tool's words after running the project's hookwire
 * hooks (deny, rewrite through `modifiedArgs` / `updated_input`, context, a Stop continuation);
 * and `hookwire run` never runs the relay entries it finds in those files.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN, REPOSITORY, runCli } from '../cli/support.ts';
import {
  RELAY_GUARD,
  runOneShellCall,
  runRelayClient,
  type ClientAnswer,
} from '../support/real-agents/relay-project.ts';

const NATIVE = join(REPOSITORY, 'native', 'build', 'hookwire-relay');

let dir: string;
let project: string;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookwire-other-tools-'));
  project = join(dir, 'project');
  home = join(dir, 'home');
  const runtime = join(dir, 'run');
  mkdirSync(join(project, '.hookwire'), { recursive: true });
  mkdirSync(home);
  mkdirSync(runtime, { mode: 0o700 });
  await writeFile(join(project, 'guard.ts'), RELAY_GUARD);
  await writeFile(
    join(project, '.hookwire', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'shell',
            hooks: [{ type: 'module', path: 'guard.ts', failClosed: true, name: 'ts-guard' }],
          },
        ],
        PostToolUse: [
          {
            matcher: 'shell',
            hooks: [
              {
                type: 'command',
                name: 'context',
                command: `echo '{"hookSpecificOutput":{"additionalContext":"CTX-MARK from hookwire"}}'`,
              },
            ],
          },
        ],
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                name: 'prompt-context',
                command: `echo '{"hookSpecificOutput":{"additionalContext":"PROMPT-MARK"}}'`,
              },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'module', path: 'guard.ts', name: 'ts-stop' }] }],
      },
    }),
  );
  env = {
    ...process.env,
    HOME: home,
    HOOKWIRE_HOME: join(dir, 'hookwire-home'),
    HOOKWIRE_TRUST_PROJECT: '1',
    XDG_RUNTIME_DIR: runtime,
  };
});

afterAll(async () => {
  await runCli(['daemon', 'stop', '--cwd', project], { env });
  await rm(dir, { recursive: true, force: true });
});

type Answer = ClientAnswer;

const client = (argv: readonly string[], payload: object): Promise<Answer> =>
  runRelayClient(argv, payload, { env, cwd: project });
const native = (spec: string, payload: object): Promise<Answer> =>
  client([NATIVE, spec, process.execPath, MAIN], payload);
const node = (args: readonly string[], payload: object): Promise<Answer> =>
  client([process.execPath, MAIN, 'relay', 'hook', ...args], payload);

function json(answer: Answer): Record<string, unknown> {
  expect(answer.code, answer.stderr).toBe(0);
  return answer.stdout === '' ? {} : (JSON.parse(answer.stdout) as Record<string, unknown>);
}

// Copilot CLI's payloads (its hooks reference: sessionId, timestamp in ms, cwd, toolName,
// toolArgs as a JSON string, toolResult, prompt); the event is named by the entry, not the payload.
const copilotTool = (command: string): object => ({
  sessionId: 'copilot-session-1',
  timestamp: 1_764_600_000_000,
  cwd: project,
  toolName: 'bash',
  toolArgs: JSON.stringify({ command, description: 'run it' }),
});

// Cursor's payloads (its hooks reference: conversation_id, generation_id, hook_event_name,
// workspace_roots, then the event's fields).
const cursorBase = (event: string): Record<string, unknown> => ({
  conversation_id: 'cursor-conversation-1',
  generation_id: 'gen-1',
  hook_event_name: event,
  workspace_roots: [project],
  cursor_version: '2.1.0',
});

describe.skipIf(!existsSync(NATIVE))('the relay answers Copilot CLI, Cursor and Codex', () => {
  it("answers Copilot CLI's payloads in its words: deny, modifiedArgs, additionalContext, agentStop's block", async () => {
    const denied = json(await native('copilot:preToolUse', copilotTool('rm precious.txt')));
    expect(denied).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('rm is not allowed here') as unknown,
    });
    const rewritten = json(await native('copilot:preToolUse', copilotTool('touch a.txt')));
    expect(rewritten['modifiedArgs']).toEqual({ command: 'touch b.txt', description: 'run it' });
    expect(rewritten['permissionDecision']).not.toBe('deny');
    expect(json(await native('copilot:preToolUse', copilotTool('ls')))).toEqual({});
    const after = json(
      await native('copilot:postToolUse', {
        ...copilotTool('ls'),
        toolResult: { resultType: 'success', textResultForLlm: 'a.txt' },
      }),
    );
    expect(after).toEqual({ additionalContext: 'CTX-MARK from hookwire' });
    const prompt = json(
      await native('copilot:userPromptSubmitted', {
        sessionId: 'copilot-session-1',
        timestamp: 1_764_600_000_000,
        cwd: project,
        prompt: 'Tidy the project.',
      }),
    );
    expect(prompt).toEqual({ additionalContext: 'PROMPT-MARK' });
    const stop = json(
      await native('copilot:agentStop', {
        sessionId: 'copilot-session-1',
        timestamp: 1_764_600_000_000,
        cwd: project,
        stopReason: 'end_turn',
      }),
    );
    expect(stop).toEqual({ decision: 'block', reason: 'CONTINUE-MARK: say the word done' });
    // The Node client says the same (the event by --event).
    const viaNode = json(
      await node(['--from', 'copilot', '--event', 'preToolUse'], copilotTool('rm x')),
    );
    expect(viaNode['permissionDecision']).toBe('deny');
  }, 120_000);

  it("answers Cursor's payloads in its words: permission, updated_input, additional_context, followup_message", async () => {
    const shell = (command: string): object => ({
      ...cursorBase('preToolUse'),
      tool_name: 'Shell',
      tool_input: { command, cwd: project },
      tool_use_id: 'call-1',
    });
    const denied = json(await native('cursor', shell('rm precious.txt')));
    expect(denied['permission']).toBe('deny');
    expect(denied['agent_message']).toContain('rm is not allowed here');
    const rewritten = json(await native('cursor', shell('touch a.txt')));
    expect(rewritten).toEqual({
      permission: 'allow',
      updated_input: { command: 'touch b.txt', cwd: project },
    });
    // beforeShellExecution cannot run changed arguments: the rewrite is not run, the call denied.
    const specific = json(
      await native('cursor', {
        ...cursorBase('beforeShellExecution'),
        command: 'touch a.txt',
        cwd: project,
      }),
    );
    expect(specific['permission']).toBe('deny');
    expect(String(specific['agent_message'])).toContain('touch b.txt');
    const deniedSpecific = json(
      await native('cursor', { ...cursorBase('beforeShellExecution'), command: 'rm x', cwd: '' }),
    );
    expect(deniedSpecific['permission']).toBe('deny');
    const after = json(
      await native('cursor', {
        ...cursorBase('postToolUse'),
        tool_name: 'Shell',
        tool_input: { command: 'ls' },
        tool_output: 'a.txt',
        tool_use_id: 'call-2',
      }),
    );
    expect(after).toEqual({ additional_context: 'CTX-MARK from hookwire' });
    const stop = json(
      await native('cursor', { ...cursorBase('stop'), status: 'completed', loop_count: 0 }),
    );
    expect(stop).toEqual({ followup_message: 'CONTINUE-MARK: say the word done' });
    // The second time round (loop_count 1) the guard lets the agent stop.
    expect(
      json(await native('cursor', { ...cursorBase('stop'), status: 'completed', loop_count: 1 })),
    ).toEqual({});
  }, 120_000);

  it("answers Codex's (Claude-shaped) payloads and records each tool's session for hooks stats", async () => {
    const denied = json(
      await native('codex', {
        session_id: 'codex-session-1',
        transcript_path: '',
        cwd: project,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm precious.txt' },
        tool_use_id: 'call_1',
      }),
    );
    expect(denied['hookSpecificOutput']).toMatchObject({ permissionDecision: 'deny' });
    for (const [session, tool] of [
      ['codex-session-1', 'Codex'],
      ['copilot-session-1', 'GitHub Copilot CLI'],
      ['cursor-conversation-1', 'Cursor'],
    ] as const) {
      const transcript = readFileSync(
        join(project, '.hookwire', 'sessions', `${session}.jsonl`),
        'utf8',
      );
      expect(transcript).toContain(`relayed from ${tool}`);
      const stats = await runCli(['hooks', 'stats', session, '--json', '--cwd', project], { env });
      expect(stats.code, stats.stderr).toBe(0);
      expect(stats.stdout).toContain('ts-guard');
    }
  }, 120_000);

  it('fails closed at a denying event when no daemon can be reached, in each tool', async () => {
    const unreachable = { ...env, XDG_RUNTIME_DIR: join(dir, 'nowhere-writable', 'x') };
    await writeFile(join(dir, 'nowhere-writable'), 'a file, not a directory');
    const run = (spec: string, payload: object): Promise<Answer> =>
      new Promise((settle) => {
        const child = spawn(NATIVE, [spec, process.execPath, MAIN], {
          env: unreachable,
          cwd: project,
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.on('close', (code) => {
          settle({ code, stdout: '', stderr });
        });
        child.stdin.end(JSON.stringify(payload));
      });
    const copilot = await run('copilot:preToolUse', copilotTool('ls'));
    expect(copilot.code).toBe(2);
    expect(copilot.stderr).toContain('blocked because');
    expect((await run('copilot:postToolUse', copilotTool('ls'))).code).toBe(0);
    expect(
      (await run('cursor', { ...cursorBase('beforeShellExecution'), command: 'ls' })).code,
    ).toBe(2);
    expect((await run('cursor', { ...cursorBase('stop'), loop_count: 0 })).code).toBe(0);
  }, 60_000);
});

describe('relay install / uninstall for Codex, Copilot CLI and Cursor', () => {
  const cases = [
    {
      tool: 'codex',
      file: ['.codex', 'hooks.json'],
      user: ['.codex', 'hooks.json'],
      // The user's own hooks, in Codex's (Claude Code's) layout, four-space indented.
      original: `${JSON.stringify(
        {
          hooks: {
            PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }],
          },
        },
        null,
        4,
      )}\n`,
      own: 'echo mine',
    },
    {
      tool: 'copilot',
      file: ['.github', 'hooks', 'hookwire.json'],
      user: ['.copilot', 'hooks', 'hookwire.json'],
      original: `${JSON.stringify(
        {
          version: 1,
          hooks: {
            preToolUse: [{ type: 'command', bash: 'echo mine', timeoutSec: 10, comment: 'mine' }],
          },
        },
        null,
        2,
      )}\n`,
      own: 'echo mine',
    },
    {
      tool: 'cursor',
      file: ['.cursor', 'hooks.json'],
      user: ['.cursor', 'hooks.json'],
      original: `${JSON.stringify(
        { version: 1, hooks: { beforeShellExecution: [{ command: './hooks/mine.sh' }] } },
        null,
        '\t',
      )}\n`,
      own: './hooks/mine.sh',
    },
  ] as const;

  for (const { tool, file, user, original, own } of cases)
    it(`${tool}: merges beside the user's hooks, is idempotent, --dry-run prints the diff, uninstall gives the file back byte for byte`, async () => {
      const target = join(project, ...file);
      mkdirSync(join(target, '..'), { recursive: true });
      await writeFile(target, original);
      const dry = await runCli(
        ['relay', 'install', '--into', tool, '--dry-run', '--cwd', project],
        {
          env,
        },
      );
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/^\+.*hookwire-relay/m);
      expect(readFileSync(target, 'utf8')).toBe(original);
      const install = ['relay', 'install', '--into', tool, '--cwd', project];
      const installed = await runCli(install, { env });
      expect(installed.code, installed.stderr).toBe(0);
      const once = readFileSync(target, 'utf8');
      expect(once).toContain(own);
      expect(once).toContain('hookwire-relay');
      // The user's indentation is kept.
      expect(once.split('\n')[1]?.match(/^\s+/)?.[0]).toBe(
        original.split('\n')[1]?.match(/^\s+/)?.[0],
      );
      expect((await runCli(install, { env })).stdout).toContain('already installed');
      expect(readFileSync(target, 'utf8')).toBe(once);
      const status = await runCli(['relay', 'status', '--cwd', project], { env });
      expect(status.stdout).toContain(`${tool} (project): ${target}`);
      // hookwire's own readers see the user's hook and never the relay entry.
      const listed = await runCli(['hooks', 'list', '--json', '--cwd', project], { env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(own.replace('./', ''));
      expect(listed.stdout).not.toContain('hookwire-relay');
      const removed = await runCli(['relay', 'uninstall', '--from', tool, '--cwd', project], {
        env,
      });
      expect(removed.code, removed.stderr).toBe(0);
      expect(readFileSync(target, 'utf8')).toBe(original);
      await rm(target);

      // User scope: the file under the home directory, created by install and gone after uninstall.
      const userFile = join(home, ...user);
      const userInstall = await runCli(
        ['relay', 'install', '--into', tool, '--scope', 'user', '--cwd', project],
        { env },
      );
      expect(userInstall.code, userInstall.stderr).toBe(0);
      expect(readFileSync(userFile, 'utf8')).toContain('hookwire-relay');
      await runCli(['relay', 'uninstall', '--from', tool, '--scope', 'user', '--cwd', project], {
        env,
      });
      expect(existsSync(userFile)).toBe(false);
    }, 120_000);

  it('writes each Copilot CLI entry with its own event (its payloads do not name it), in seconds', async () => {
    const copilot = await runCli(
      [
        'relay',
        'install',
        '--into',
        'copilot',
        '--events',
        'preToolUse,agentStop',
        '--cwd',
        project,
      ],
      { env },
    );
    expect(copilot.code, copilot.stderr).toBe(0);
    const file = join(project, '.github', 'hooks', 'hookwire.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as {
      version: number;
      hooks: Record<string, { type: string; bash: string; timeoutSec: number }[]>;
    };
    expect(settings.version).toBe(1);
    expect(Object.keys(settings.hooks)).toEqual(['preToolUse', 'agentStop']);
    expect(settings.hooks['preToolUse']?.[0]?.bash).toContain(' copilot:preToolUse ');
    expect(settings.hooks['agentStop']?.[0]?.bash).toContain(' copilot:agentStop ');
    expect(settings.hooks['preToolUse']?.[0]?.timeoutSec).toBe(600);
    await runCli(['relay', 'uninstall', '--from', 'copilot', '--cwd', project], { env });
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});

describe('hookwire run never runs relay entries from Copilot CLI or Cursor files (no loops)', () => {
  it("runs only the user's own hooks beside the relay entries", async () => {
    const loop = await mkdtemp(join(tmpdir(), 'hookwire-no-loop-'));
    try {
      const projectDir = join(loop, 'project');
      mkdirSync(join(projectDir, '.github', 'hooks'), { recursive: true });
      mkdirSync(join(projectDir, '.cursor'), { recursive: true });
      await writeFile(
        join(projectDir, '.github', 'hooks', 'mine.json'),
        JSON.stringify({
          version: 1,
          hooks: { preToolUse: [{ type: 'command', bash: 'touch copilot-own-ran' }] },
        }),
      );
      await writeFile(
        join(projectDir, '.cursor', 'hooks.json'),
        JSON.stringify({
          version: 1,
          hooks: { beforeShellExecution: [{ command: 'touch cursor-own-ran' }] },
        }),
      );
      // A runtime directory no daemon can use: a relay entry that ran would fail closed.
      const hookEnv = {
        ...process.env,
        HOME: join(loop, 'home'),
        HOOKWIRE_HOME: join(loop, 'hookwire-home'),
        HOOKWIRE_TRUST_PROJECT: '1',
        XDG_RUNTIME_DIR: '/nonexistent-runtime',
      };
      for (const tool of ['copilot', 'cursor']) {
        const installed = await runCli(['relay', 'install', '--into', tool, '--cwd', projectDir], {
          env: hookEnv,
        });
        expect(installed.code, installed.stderr).toBe(0);
      }
      const outcome = await runOneShellCall(projectDir, loop, hookEnv);
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(existsSync(join(projectDir, 'copilot-own-ran'))).toBe(true);
      expect(existsSync(join(projectDir, 'cursor-own-ran'))).toBe(true);
      expect(existsSync(join(projectDir, 'ran.txt'))).toBe(true);
    } finally {
      await rm(loop, { recursive: true, force: true });
    }
  }, 120_000);
});
