/**
 * `hookwire relay` inside the real Gemini CLI (`gemini -p`, the pinned version installed by
 * `test/support/real-agents`), against a loopback Gemini API (`GOOGLE_GEMINI_BASE_URL`): the
 * project's hooks live in `.hookwire/settings.json` only, relayed by `hookwire relay install
 * --into gemini`. Offline it needs an API key, `security.auth.selectedType: "gemini-api-key"` and
 * folder trust off in its (temporary) home's settings.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startGeminiMock,
  type GeminiMock,
  type GeminiPart,
} from '../support/real-agents/gemini-mock.ts';
import { installRealAgents } from '../support/real-agents/install-agents.ts';
import { makeRelayProject, type RelayProject } from '../support/real-agents/relay-project.ts';

const agents = installRealAgents();
const gemini = 'path' in agents.gemini ? agents.gemini.path : undefined;
const skip = 'skip' in agents.gemini ? agents.gemini.skip : undefined;

let relay: RelayProject;
let project: string;
let home: string;
let mock: GeminiMock;
let env: Record<string, string>;

beforeAll(async () => {
  if (skip !== undefined) return;
  relay = await makeRelayProject('gemini');
  ({ project, env } = relay);
  home = join(relay.root, 'home');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  await writeFile(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
    }),
  );
  mock = await startGeminiMock();
}, 600_000);

afterAll(async () => {
  if (skip !== undefined) return;
  await mock.close();
  await relay.close();
});

function run(
  script: (index: number) => GeminiPart,
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (gemini === undefined) throw new Error('unreachable: skipped without Gemini CLI');
  mock.script(script);
  return new Promise((settle) => {
    execFile(
      process.execPath,
      [gemini, '-p', 'Tidy the project.', '--yolo', '-m', 'gemini-2.5-pro'],
      {
        cwd: project,
        timeout: 180_000,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: home,
          GEMINI_API_KEY: 'loopback-test',
          GOOGLE_GEMINI_BASE_URL: mock.origin,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        settle({
          code: error === null ? 0 : Number((error as { code?: unknown }).code ?? 1),
          stdout,
          stderr,
        });
      },
    );
  });
}

const shell = (command: string): GeminiPart => ({
  functionCall: { name: 'run_shell_command', args: { command } },
});

describe.skipIf(skip !== undefined)(
  `hookwire relay inside the real Gemini CLI${skip === undefined ? '' : ` (skipped: ${skip})`}`,
  () => {
    it('a failClosed TS guard stops rm, a rewrite changes the command, prompt context reaches the model, AfterAgent continues; the daemon records the session', async () => {
      const outcome = await run((index) =>
        index === 0
          ? shell('rm precious.txt')
          : index === 1
            ? shell('touch a.txt')
            : { text: index === 2 ? 'Finished.' : 'done' },
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(existsSync(join(project, 'precious.txt'))).toBe(true);
      const calls = mock.agentCalls();
      expect(JSON.stringify(calls[1]?.body)).toContain('rm is not allowed here');
      expect(existsSync(join(project, 'b.txt'))).toBe(true);
      expect(existsSync(join(project, 'a.txt'))).toBe(false);
      expect(JSON.stringify(calls[0]?.body)).toContain('PROMPT-MARK from hookwire');
      // The Stop guard's block at AfterAgent made Gemini CLI go on with the reason as the prompt;
      // the second time (stop_hook_active) it let it stop.
      expect(calls).toHaveLength(4);
      expect(JSON.stringify(calls[3]?.body)).toContain('CONTINUE-MARK: say the word done');
      const sessions = readdirSync(join(project, '.hookwire', 'sessions')).filter((name) =>
        name.endsWith('.jsonl'),
      );
      expect(sessions).toHaveLength(1);
      const transcript = readFileSync(join(project, '.hookwire', 'sessions', sessions[0]!), 'utf8');
      expect(transcript).toContain('relayed from Gemini CLI');
      expect(transcript).toContain('ts-guard');
      expect(transcript).toContain('ts-stop');
    }, 300_000);

    it("a relayed guard whose hook hangs denies at hookwire's deadline", async () => {
      const outcome = await run((index) =>
        index === 0 ? shell('touch hung.txt # HANG') : { text: 'Finished.' },
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(existsSync(join(project, 'hung.txt'))).toBe(false);
      expect(JSON.stringify(mock.agentCalls()[1]?.body)).toContain('timed out after 2s');
    }, 300_000);
  },
);
