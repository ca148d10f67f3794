/**
 * `hookwire relay …` and `hookwire daemon …` (decision 0035): hookwire's hooks inside Claude Code
 * and Gemini CLI through a per-project daemon.
 *
 * - `relay hook --from TOOL`: the Node relay client a relay entry runs where the native one is
 *   not built: the tool's payload on stdin, its answer on stdout/stderr and the exit code.
 * - `relay install --into TOOL [--scope project|user] [--events LIST] [--dry-run]`,
 *   `relay uninstall --from TOOL [--scope …] [--dry-run]`, `relay status`.
 * - `daemon run` (the daemon itself, in the foreground), `daemon start|status|stop`.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../cli-error.ts';
import { parseTimeout } from '../../hook-kinds/duration.ts';
import { writeStdout } from '../output/stdout.ts';
import { packageFile } from '../../supervision/package-files.ts';
import { readStdin } from '../read-stdin.ts';
import {
  formatToolSpec,
  isRelayTool,
  RELAY_TOOL_RULES,
  RELAY_TOOLS,
  type RelayTool,
} from '../relay/relay-dialects.ts';
import { buildIdOf, relayPaths } from '../relay/relay-paths.ts';

/** The idle period after which a daemon stops, unless `--idle` says otherwise. */
export const DEFAULT_IDLE = '30m';

/** The CLI entry file this process runs (what a daemon and the clients are built from). */
function entryFile(): string {
  return realpathSync(process.argv[1] ?? fileURLToPath(import.meta.url));
}

/**
 * The native relay client of this package, when it was built (`npm run build` with `cc`). Found
 * from the package root (as the spawn helper is), not from this module's own path: in the bundled
 * `dist/bin/hookwire.js` that path is another depth, and a client looked up relative to it was
 * never found, so every relay entry ran the Node client (a Node start per event).
 */
export function nativeClient(): string | undefined {
  const file = packageFile('native', 'build', 'hookwire-relay');
  return existsSync(file) ? file : undefined;
}

const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * The command a relay entry runs for `tool` (and `event`, for a tool whose payloads do not name
 * theirs): the native client (`hookwire-relay TOOL[:EVENT] NODE ENTRY`), or the Node one.
 */
export function relayCommand(tool: RelayTool, event?: string, native = nativeClient()): string {
  const node = quote(process.execPath);
  const entry = quote(entryFile());
  const named = RELAY_TOOL_RULES[tool].entryNamesEvent && event !== undefined;
  return native === undefined
    ? `${node} ${entry} relay hook --from ${tool}${named ? ` --event ${event}` : ''}`
    : `${quote(native)} ${formatToolSpec(named ? { tool, event } : { tool })} ${node} ${entry}`;
}

function toolOf(value: string | undefined, flag: string): RelayTool {
  if (value === undefined || !isRelayTool(value))
    throw new CliError(
      `${flag} must be one of ${RELAY_TOOLS.join(', ')}${value === undefined ? '' : ` (got "${value}")`}`,
    );
  return value;
}

/** The project a relay client runs for: the calling tool's project variable, else the cwd. */
function projectOf(tool: RelayTool, cwd: string | undefined): string {
  const variable = RELAY_TOOL_RULES[tool].projectVariable;
  return (
    cwd ??
    (variable === undefined ? undefined : process.env[variable]) ??
    process.env['HOOKWIRE_PROJECT_DIR'] ??
    process.cwd()
  );
}

export interface RelayHookOptions {
  readonly from?: string;
  /** The event, for a tool whose payloads do not name it (Copilot CLI). */
  readonly event?: string;
  readonly cwd?: string;
}

export async function relayHookCommand(options: RelayHookOptions): Promise<number> {
  const tool = toolOf(options.from, '--from');
  const spec = options.event === undefined ? { tool } : { tool, event: options.event };
  const payload = await readStdin();
  const { relayEvent } = await import('../relay/relay-client.ts');
  const { unreachableAnswer } = await import('../relay/relay-dialects.ts');
  let answer;
  try {
    const entry = entryFile();
    answer = await relayEvent(spec, payload, {
      paths: relayPaths(projectOf(tool, options.cwd)),
      build: buildIdOf(entry),
      node: process.execPath,
      entry,
    });
  } catch (error) {
    let event = options.event ?? '';
    try {
      const name = (JSON.parse(payload) as { hook_event_name?: unknown }).hook_event_name;
      if (event === '' && typeof name === 'string') event = name;
    } catch {
      // No event: not one that can deny.
    }
    answer = unreachableAnswer(tool, event, error instanceof Error ? error.message : String(error));
  }
  if (answer.stdout !== '') writeStdout(answer.stdout);
  if (answer.stderr !== '') process.stderr.write(answer.stderr);
  return answer.exit;
}

export interface RelayInstallOptions {
  readonly into?: string;
  readonly from?: string;
  readonly scope?: string;
  readonly events?: string;
  readonly dryRun?: boolean;
  readonly cwd?: string;
}

export async function relayInstallCommand(
  options: RelayInstallOptions,
  remove: boolean,
): Promise<number> {
  const tool = toolOf(remove ? options.from : options.into, remove ? '--from' : '--into');
  const scope = options.scope ?? 'project';
  if (scope !== 'project' && scope !== 'user')
    throw new CliError(`--scope must be project or user (got "${scope}")`);
  const { changeRelay, settingsFileOf } = await import('../relay/relay-install.ts');
  const projectDir = resolve(options.cwd ?? process.cwd());
  const change = await changeRelay({
    tool,
    file: settingsFileOf(tool, scope, projectDir),
    remove,
    ...(options.events === undefined
      ? {}
      : {
          events: options.events
            .split(',')
            .map((event) => event.trim())
            .filter(Boolean),
        }),
    command: (event: string) => relayCommand(tool, event),
    dryRun: options.dryRun === true,
  });
  if (options.dryRun === true) {
    writeStdout(change.changed ? change.diff : `${change.file}: no change\n`);
    return 0;
  }
  writeStdout(
    change.changed
      ? `${remove ? 'removed the relay from' : 'installed the relay in'} ${change.file}\n`
      : `${change.file}: ${remove ? 'no relay entries' : 'already installed'}, nothing changed\n`,
  );
  return 0;
}

async function daemonState(
  projectDir: string,
): Promise<{ running: boolean; pid?: number; socket: string }> {
  const paths = relayPaths(projectDir);
  const { answers } = await import('../relay/relay-client.ts');
  const running = await answers(paths.socket);
  let pid: number | undefined;
  try {
    pid = Number(readFileSync(paths.pid, 'utf8').trim());
  } catch {
    pid = undefined;
  }
  return { running, socket: paths.socket, ...(running && pid !== undefined ? { pid } : {}) };
}

export async function relayStatusCommand(options: { readonly cwd?: string }): Promise<number> {
  const projectDir = resolve(options.cwd ?? process.cwd());
  const { relayEventsIn, settingsFileOf } = await import('../relay/relay-install.ts');
  const lines: string[] = [];
  for (const tool of RELAY_TOOLS)
    for (const scope of ['project', 'user'] as const) {
      const file = settingsFileOf(tool, scope, projectDir);
      const events = await relayEventsIn(file);
      if (events.length > 0) lines.push(`${tool} (${scope}): ${file}: ${events.join(', ')}`);
    }
  if (lines.length === 0) lines.push('the relay is not installed for this project');
  const state = await daemonState(projectDir);
  lines.push(
    state.running
      ? `daemon: running (pid ${state.pid ?? '?'}) on ${state.socket}`
      : `daemon: not running (starts on the first relayed event; socket ${state.socket})`,
  );
  writeStdout(lines.join('\n') + '\n');
  return 0;
}

export interface DaemonOptions {
  readonly cwd?: string;
  readonly idle?: string;
}

function idleMs(idle: string | undefined): number {
  const parsed = parseTimeout(idle ?? DEFAULT_IDLE);
  if (!parsed.ok) throw new CliError(`--idle: ${parsed.message}; ${parsed.fix}`);
  return parsed.milliseconds;
}

export async function daemonRunCommand(options: DaemonOptions): Promise<number> {
  const { runRelayDaemon } = await import('../relay/relay-daemon.ts');
  await runRelayDaemon({
    paths: relayPaths(resolve(options.cwd ?? process.cwd())),
    build: buildIdOf(entryFile()),
    idleMs: idleMs(options.idle),
  });
  return 0;
}

export async function daemonStartCommand(options: DaemonOptions): Promise<number> {
  idleMs(options.idle);
  const { startDaemon } = await import('../relay/relay-client.ts');
  const paths = relayPaths(resolve(options.cwd ?? process.cwd()));
  const started = await startDaemon(paths, {
    node: process.execPath,
    entry: entryFile(),
    ...(options.idle === undefined ? {} : { idle: options.idle }),
  });
  if (!started) {
    process.stderr.write(`hookwire daemon: did not start; see ${paths.log}\n`);
    return 1;
  }
  return 0;
}

export async function daemonStatusCommand(options: DaemonOptions): Promise<number> {
  const state = await daemonState(resolve(options.cwd ?? process.cwd()));
  writeStdout(
    state.running
      ? `running (pid ${state.pid ?? '?'}) on ${state.socket}\n`
      : `not running (socket ${state.socket})\n`,
  );
  return state.running ? 0 : 3;
}

export async function daemonStopCommand(options: DaemonOptions): Promise<number> {
  const paths = relayPaths(resolve(options.cwd ?? process.cwd()));
  const state = await daemonState(paths.projectDir);
  if (!state.running || state.pid === undefined) {
    writeStdout('not running\n');
    return 0;
  }
  process.kill(state.pid, 'SIGTERM');
  const { answers } = await import('../relay/relay-client.ts');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await answers(paths.socket)))
    await new Promise((settle) => setTimeout(settle, 20));
  writeStdout(`stopped (pid ${state.pid})\n`);
  return 0;
}
