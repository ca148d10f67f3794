/**
 * Test support for the CLI suites: the real `hookwire` process (`node src/cli/main.ts`), real
 * hook processes written into temporary directories, and scripted models. Every spawn isolates
 * settings discovery with `HOOKWIRE_HOME` and `HOOKWIRE_MANAGED_SETTINGS`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN = join(REPOSITORY, 'src', 'cli', 'main.ts');
/** The command users run: package.json's `bin`, the bundle `npm run build` writes. */
export const BIN = join(
  REPOSITORY,
  (
    JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')) as {
      bin: { hookwire: string };
    }
  ).bin.hookwire,
);

/** A scratch area: a home, a managed policy path and a project directory, all empty. */
export interface Sandbox {
  readonly root: string;
  readonly home: string;
  readonly managedFile: string;
  readonly project: string;
  /** The environment every CLI spawn of this sandbox gets. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Creates a sandbox under the system temporary directory. Call it inside a test: the sandbox,
 * with everything the test and its hooks wrote there, is removed when that test finishes.
 */
export async function createSandbox(
  options: {
    /** false for a sandbox shared by a file's tests (made in `beforeAll`): the caller removes `root` in `afterAll`. */
    readonly removeAfterTest?: boolean;
  } = {},
): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'hookwire-cli-'));
  if (options.removeAfterTest !== false) {
    onTestFinished(async () => {
      await rm(root, { recursive: true, force: true });
    });
  }
  const home = join(root, 'home');
  const project = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  const managedFile = join(root, 'managed', 'managed-settings.json');
  return {
    root,
    home,
    managedFile,
    project,
    // These suites exercise what project hooks do, so the sandbox trusts its project for each
    // run (as CI does); the trust suite builds its own environment without it.
    env: {
      ...process.env,
      HOOKWIRE_HOME: home,
      HOOKWIRE_MANAGED_SETTINGS: managedFile,
      HOOKWIRE_TRUST_PROJECT: '1',
    },
  };
}

/** Writes `value` as JSON to `file`, creating its directory. */
export async function writeJson(file: string, value: unknown): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
  return file;
}

/** Writes a Node hook script and returns the shell command that runs it with `args`. */
export async function writeHookScript(
  directory: string,
  name: string,
  source: string,
  args: readonly string[] = [],
): Promise<string> {
  const file = join(directory, 'hooks', name);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, source);
  return [process.execPath, file, ...args].map((part) => JSON.stringify(part)).join(' ');
}

/** A settings object with one group per entry: `{event: [[command, extra?], …]}`. */
export function settingsWith(
  events: Readonly<
    Record<string, readonly (string | { command: string; [key: string]: unknown })[]>
  >,
  groupExtra: Readonly<Record<string, Record<string, unknown>>> = {},
): unknown {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, commands] of Object.entries(events)) {
    hooks[event] = [
      {
        ...groupExtra[event],
        hooks: commands.map((entry) =>
          typeof entry === 'string'
            ? { type: 'command', command: entry }
            : { type: 'command', ...entry },
        ),
      },
    ];
  }
  return { hooks };
}

/** A hook that appends one JSON line per payload to the log file given as its argument. */
export const LOGGER_HOOK = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(payload) + '\\n');
`;

/** Reads a JSONL log written by hooks (missing file: no lines). */
export async function readLog(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A scripted model file from turns. */
export async function writeScript(file: string, turns: readonly unknown[]): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, turns.map((turn) => JSON.stringify(turn)).join('\n') + '\n');
  return file;
}

export const say = (text: string, finishReason = 'stop'): unknown => ({
  blocks: [{ type: 'text', text }],
  finishReason,
});

export const callTool = (id: string, name: string, parameters: unknown): unknown => ({
  blocks: [{ type: 'tool_call', id, name, parameters }],
  finishReason: 'tool_calls',
});

/** What a finished CLI process left behind. */
export interface CliOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Written to stdin, which then closes; without it stdin is closed empty. */
  readonly input?: string;
  /** Called with each complete stdout line as it arrives. */
  readonly onLine?: (line: string, child: ChildProcess) => void;
  /** Called once with the spawned process (e.g. to signal it when a hook is ready). */
  readonly onSpawn?: (child: ChildProcess) => void;
  /** The entry script to run instead of the sources' `src/cli/main.ts` (e.g. the built bin). */
  readonly main?: string;
}

/** Spawns `node src/cli/main.ts …args` and resolves when it exits. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliOutcome> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [options.main ?? MAIN, ...args], {
      cwd: options.cwd ?? REPOSITORY,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (options.onLine === undefined) return;
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        options.onLine(pending.slice(0, newline), child);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    });
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolvePromise({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
    options.onSpawn?.(child);
  });
}

/** The arguments of `hookwire run PROMPT` on the scripted model `script`, in `project`, then `extra`. */
export function scriptedRunArgs(
  script: string,
  project: string,
  extra: readonly string[] = [],
  prompt = 'go',
): string[] {
  return ['run', prompt, '--model', `scripted:${script}`, '--cwd', project, ...extra];
}

/** Options of `runScripted`. */
export interface ScriptedRunOptions {
  /** The prompt; default `go`. */
  readonly prompt?: string;
  /** More flags, after the model, the project and the request log. */
  readonly extra?: readonly string[];
  /** Default: the sandbox's. */
  readonly env?: NodeJS.ProcessEnv;
}

/** A finished `runScripted`: the process's outcome and the requests the model was sent. */
export interface ScriptedRun extends CliOutcome {
  /** Every request the scripted model got in this run, in order (`--record-requests`). */
  readonly requests: Record<string, unknown>[];
}

let scriptedRuns = 0;

/**
 * Runs `hookwire run PROMPT` in the sandbox's project on a scripted model answering `turns`,
 * recording every request it is sent. Each call writes a script and a request log of its own, so
 * several runs in one sandbox (a run, then the same after `hooks import`) never mix.
 */
export async function runScripted(
  sandbox: Sandbox,
  turns: readonly unknown[],
  options: ScriptedRunOptions = {},
): Promise<ScriptedRun> {
  const index = ++scriptedRuns;
  const script = await writeScript(join(sandbox.root, `model-${index}.jsonl`), turns);
  const record = join(sandbox.root, `requests-${index}.jsonl`);
  const outcome = await runCli(
    scriptedRunArgs(
      script,
      sandbox.project,
      ['--record-requests', record, ...(options.extra ?? [])],
      options.prompt,
    ),
    { env: options.env ?? sandbox.env },
  );
  return { ...outcome, requests: await readLog(record) };
}

/** The JSON lines of a stream-json stdout. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A `tool-result` line of `--output-format stream-json`. */
export interface ToolResult {
  toolName: string;
  result: unknown;
  error?: string;
}

/**
 * Runs `calls` (one model turn each, then a final answer) through `hookwire run` with a scripted
 * model and `extra` flags, and returns every tool result the model saw.
 */
export async function runToolCalls(
  sandbox: Sandbox,
  calls: readonly [string, unknown][],
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = sandbox.env,
): Promise<{ results: ToolResult[]; code: number | null; stdout: string; stderr: string }> {
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    ...calls.map(([name, args], index) => callTool(`c${index}`, name, args)),
    say('done'),
  ]);
  const outcome = await runCli(
    scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json', ...extra]),
    { env },
  );
  const results = jsonLines(outcome.stdout)
    .filter((line) => line['type'] === 'tool-result')
    .map((line) => line as unknown as ToolResult);
  return { results, code: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr };
}

/** `runToolCalls` with one `shell` call per command. */
export function runShellCommands(
  sandbox: Sandbox,
  commands: readonly string[],
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = sandbox.env,
): ReturnType<typeof runToolCalls> {
  return runToolCalls(
    sandbox,
    commands.map((command) => ['shell', { command }]),
    extra,
    env,
  );
}
