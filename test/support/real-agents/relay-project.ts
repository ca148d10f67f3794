/**
 * The project every relay end-to-end test runs a real agent in (one harness for Claude Code and
 * Gemini CLI): its hooks live in `.hookwire/settings.json` only — a failClosed TypeScript guard
 * (`module` kind: denies `rm`, rewrites `touch a.txt` to `touch b.txt`, blocks the first Stop),
 * a guard whose command hangs on `HANG` (2 s deadline, failClosed), context after a shell call
 * (`CTX-MARK`) and at the prompt (`PROMPT-MARK`) — a file the guard must save (`precious.txt`),
 * its own runtime directory for the daemon's socket, and `hookwire relay install --into TOOL`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliOutcome } from '../../cli/support.ts';

/** The TypeScript guard every relay test's project runs (see the module doc). */
export const RELAY_GUARD = `
interface Call { readonly toolName: string; readonly args: { readonly command?: string } }
export default {
  onToolCall(_context: unknown, call: Call) {
    const command = call.args.command ?? '';
    if (/\\brm\\b/.test(command)) return { kind: 'skip', reason: 'hookwire guard: rm is not allowed here' };
    if (command === 'touch a.txt') return { kind: 'rewrite', args: { ...call.args, command: 'touch b.txt' } };
    return { kind: 'run' };
  },
  onStop(_context: unknown, stop: { readonly stopHookActive: boolean }) {
    return stop.stopHookActive ? { kind: 'continue' } : { kind: 'block', reason: 'CONTINUE-MARK: say the word done' };
  },
};
`;

const context = (name: string, text: string) => ({
  type: 'command',
  name,
  command: `echo '{"hookSpecificOutput":{"additionalContext":"${text}"}}'`,
});

const SETTINGS = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'shell',
        hooks: [
          { type: 'module', path: './hooks/guard.ts', failClosed: true, name: 'ts-guard' },
          {
            type: 'command',
            command: 'sh hooks/hang.sh',
            timeout: '2s',
            failClosed: true,
            name: 'hanging-guard',
          },
        ],
      },
    ],
    PostToolUse: [{ matcher: 'shell', hooks: [context('context', 'CTX-MARK from hookwire')] }],
    UserPromptSubmit: [{ hooks: [context('prompt-context', 'PROMPT-MARK from hookwire')] }],
    Stop: [{ hooks: [{ type: 'module', path: './hooks/guard.ts', name: 'ts-stop' }] }],
  },
};

/**
 * hookwire's environment for a relay test or benchmark under `root`: its own home, the project
 * trusted, and a runtime directory (0700) for the daemon's socket.
 */
export function relayEnvironment(root: string): Record<string, string> {
  const runtime = join(root, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  return {
    HOOKWIRE_HOME: join(root, 'hookwire-home'),
    HOOKWIRE_TRUST_PROJECT: '1',
    XDG_RUNTIME_DIR: runtime,
  };
}

export interface RelayProject {
  /** The temporary folder holding everything (the agent's home may go under it too). */
  readonly root: string;
  readonly project: string;
  /** hookwire's environment for the agent and the CLI: its home, trust, the runtime directory. */
  readonly env: Record<string, string>;
  /** Stops the project's daemon and removes the folder. */
  close(): Promise<void>;
}

export async function makeRelayProject(tool: 'claude' | 'gemini'): Promise<RelayProject> {
  const root = await mkdtemp(join(tmpdir(), `hookwire-${tool}-`));
  const project = join(root, 'project');
  mkdirSync(join(project, '.hookwire'), { recursive: true });
  mkdirSync(join(project, 'hooks'));
  const env = relayEnvironment(root);
  await writeFile(join(project, 'hooks', 'guard.ts'), RELAY_GUARD);
  await writeFile(
    join(project, 'hooks', 'hang.sh'),
    'payload=$(cat); case "$payload" in *HANG*) sleep 60;; esac; exit 0\n',
  );
  await writeFile(join(project, '.hookwire', 'settings.json'), JSON.stringify(SETTINGS));
  await writeFile(join(project, 'precious.txt'), 'keep me');
  const installed = await runCli(['relay', 'install', '--into', tool, '--cwd', project], {
    env: { ...process.env, ...env },
  });
  if (installed.code !== 0) throw new Error(`relay install --into ${tool}: ${installed.stderr}`);
  return {
    root,
    project,
    env,
    async close() {
      await runCli(['daemon', 'stop', '--cwd', project], { env: { ...process.env, ...env } });
      // The agent's helpers may still be finishing writes in its temp folder: retry the removal.
      await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** What a relay client printed and exited with. */
export interface ClientAnswer {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a relay client (`argv`) as a calling tool would: `payload` on stdin, in `cwd`. */
export function runRelayClient(
  argv: readonly string[],
  payload: object,
  options: { readonly env: NodeJS.ProcessEnv; readonly cwd: string },
): Promise<ClientAnswer> {
  return new Promise((settle, reject) => {
    const child = spawn(argv[0] ?? '', argv.slice(1), {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      settle({ code, stdout, stderr });
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

/**
 * `hookwire run` in `projectDir` on a scripted model that makes one shell call, `touch ran.txt`,
 * then stops (the script is written to `scratch`): where the project's other tools' files hold
 * relay entries, a run that ran one would fail closed under a runtime directory no daemon can use.
 */
export async function runOneShellCall(
  projectDir: string,
  scratch: string,
  env: NodeJS.ProcessEnv,
): Promise<CliOutcome> {
  const script = join(scratch, 'model.jsonl');
  await writeFile(
    script,
    [
      JSON.stringify({
        blocks: [
          { type: 'tool_call', id: 'c1', name: 'shell', parameters: { command: 'touch ran.txt' } },
        ],
        finishReason: 'tool_calls',
      }),
      JSON.stringify({ blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop' }),
    ].join('\n') + '\n',
  );
  return runCli(['run', 'go', '--model', `scripted:${script}`, '--cwd', projectDir], { env });
}
