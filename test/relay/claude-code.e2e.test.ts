/**
 * `hookwire relay` inside the real Claude Code (`claude -p`, the pinned version installed by
 * `test/support/real-agents`), against a loopback Anthropic mock: the project's hooks live in
 * `.hookwire/settings.json` only; `hookwire relay install --into claude` writes the relay entries
 * into `.claude/settings.json`, and Claude Code's hook calls reach hookwire's daemon through the
 * native client. The effects asserted are the files the shell calls touch and what reaches the
 * model's next request; the daemon's records are read back with `hooks stats` and `trace`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/support.ts';
import {
  startAnthropicMock,
  toolResultsOf,
  type AnthropicMock,
  type MockBlock,
} from '../support/real-agents/anthropic-mock.ts';
import { installRealAgents } from '../support/real-agents/install-agents.ts';
import {
  makeRelayProject,
  runOneShellCall,
  type RelayProject,
} from '../support/real-agents/relay-project.ts';
import { runClaude, type ClaudeRun } from '../support/real-agents/run-claude.ts';

const agents = installRealAgents();
const claude = 'path' in agents.claude ? agents.claude.path : undefined;
const skip = 'skip' in agents.claude ? agents.claude.skip : undefined;

let relay: RelayProject;
let root: string;
let project: string;
let mock: AnthropicMock;
let env: Record<string, string>;

beforeAll(async () => {
  if (skip !== undefined) return;
  relay = await makeRelayProject('claude');
  ({ root, project, env } = relay);
  mock = await startAnthropicMock();
}, 600_000);

afterAll(async () => {
  if (skip !== undefined) return;
  await mock.close();
  await relay.close();
});

async function run(script: (index: number) => MockBlock): Promise<ClaudeRun> {
  if (claude === undefined) throw new Error('unreachable: skipped without Claude Code');
  mock.script(script);
  return runClaude({
    claude,
    project,
    home: join(root, 'claude-home'),
    baseUrl: mock.origin,
    prompt: 'Tidy the project.',
    env,
  });
}

const bash = (id: string, command: string): MockBlock => ({
  type: 'tool_use',
  id,
  name: 'Bash',
  input: { command, description: 'run it' },
});

describe.skipIf(skip !== undefined)(
  `hookwire relay inside the real Claude Code${skip === undefined ? '' : ` (skipped: ${skip})`}`,
  () => {
    it('guards, rewrites, adds context and continues at Stop with hookwire semantics; the daemon records the session', async () => {
      const outcome = await run((index) =>
        index === 0
          ? bash('toolu_1', 'rm precious.txt')
          : index === 1
            ? bash('toolu_2', 'touch a.txt')
            : { type: 'text', text: index === 2 ? 'Finished.' : 'done' },
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      // The failClosed TypeScript guard stopped rm: the file survives, the reason reached the model.
      expect(existsSync(join(project, 'precious.txt'))).toBe(true);
      const calls = mock.agentCalls();
      expect(JSON.stringify(toolResultsOf(calls[1]!))).toContain('rm is not allowed here');
      // The rewrite changed the command that ran.
      expect(existsSync(join(project, 'b.txt'))).toBe(true);
      expect(existsSync(join(project, 'a.txt'))).toBe(false);
      // PostToolUse context reached the model's next request.
      expect(JSON.stringify(calls[2]!.body)).toContain('CTX-MARK from hookwire');
      // The Stop hook's block made Claude Code continue with the reason as the next prompt.
      expect(calls).toHaveLength(4);
      expect(JSON.stringify(calls[3]!.body)).toContain('CONTINUE-MARK: say the word done');

      // The daemon recorded the relayed session under Claude Code's session id.
      const sessions = readdirSync(join(project, '.hookwire', 'sessions')).filter((name) =>
        name.endsWith('.jsonl'),
      );
      expect(sessions).toHaveLength(1);
      const sessionId = sessions[0]!.replace(/\.jsonl$/, '');
      const stats = await runCli(['hooks', 'stats', sessionId, '--json', '--cwd', project], {
        env: { ...process.env, ...env },
      });
      expect(stats.code, stats.stderr).toBe(0);
      expect(stats.stdout).toContain('ts-guard');
      expect(stats.stdout).toContain('context');
      const trace = await runCli(['trace', sessionId, '--out', '-', '--cwd', project], {
        env: { ...process.env, ...env },
      });
      expect(trace.code, trace.stderr).toBe(0);
      expect(trace.stdout).toContain('ts-guard');
      expect(trace.stdout).toContain(sessionId);
      // The transcript names the calling tool.
      const transcript = readFileSync(join(project, '.hookwire', 'sessions', sessions[0]!), 'utf8');
      expect(transcript).toContain('relayed from Claude Code');
    }, 300_000);

    it("a relayed guard whose hook hangs denies at hookwire's deadline, long before Claude Code's own", async () => {
      const started = Date.now();
      const outcome = await run((index) =>
        index === 0
          ? bash('toolu_h', 'touch hung.txt # HANG')
          : { type: 'text', text: 'Finished.' },
      );
      const elapsed = Date.now() - started;
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(existsSync(join(project, 'hung.txt'))).toBe(false);
      const calls = mock.agentCalls();
      expect(JSON.stringify(toolResultsOf(calls[1]!))).toContain('timed out after 2s');
      // The relay entry's own timeout is 600 s: hookwire's 2 s deadline decided.
      expect(elapsed).toBeLessThan(120_000);
    }, 300_000);
  },
);

describe('the relay entries are not run by hookwire run (no loops)', () => {
  it("hookwire run reads .claude/settings.json beside the relay entries and runs only the user's own hooks", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookwire-loop-'));
    try {
      const projectDir = join(dir, 'project');
      mkdirSync(join(projectDir, '.claude'), { recursive: true });
      await writeFile(
        join(projectDir, '.claude', 'settings.json'),
        JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher: 'Bash', hooks: [{ type: 'command', command: 'touch own-hook-ran' }] },
            ],
          },
        }),
      );
      const hookEnv = {
        ...process.env,
        HOOKWIRE_HOME: join(dir, 'home'),
        HOOKWIRE_TRUST_PROJECT: '1',
        XDG_RUNTIME_DIR: '/nonexistent-runtime',
      };
      const installed = await runCli(
        ['relay', 'install', '--into', 'claude', '--cwd', projectDir],
        { env: hookEnv },
      );
      expect(installed.code, installed.stderr).toBe(0);
      const listed = await runCli(['hooks', 'list', '--json', '--cwd', projectDir], {
        env: hookEnv,
      });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('own-hook-ran');
      expect(listed.stdout).not.toContain('hookwire-relay');
      // A run whose relay entry ran would fail closed (no daemon can start under that runtime dir).
      const outcome = await runOneShellCall(projectDir, dir, hookEnv);
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(existsSync(join(projectDir, 'own-hook-ran'))).toBe(true);
      expect(existsSync(join(projectDir, 'ran.txt'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
