/**
 * A project's relay daemon (decision 0035): one process per project, listening on the project's
 * socket (`relay-paths.ts`), that runs hookwire's own hooks for the events the calling tools'
 * relay entries hand it, and answers in each tool's words (`relay-dialects.ts`).
 *
 * - Its hooks are the project's hookwire settings — every layer (managed policy, user, project,
 *   local), trust by hash as `hookwire run` applies it, every hook kind — opened once and shared
 *   by every agent and session of the project, opened again when a settings file or the trust
 *   record changes. The other tools' files are not read (their own tool runs them).
 * - Every hook run is recorded in `.hookwire/sessions/<calling tool's session id>.jsonl`, so
 *   `hookwire hooks stats` and `hookwire trace` show relayed sessions.
 * - It stops after `idleMs` without an event, on SIGTERM/SIGINT, and when a client of another
 *   build connects (that client starts its own build's daemon); it removes its socket as it goes.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { appendFileSync, statSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { answers } from './relay-client.ts';
import { join } from 'node:path';
import type { ClaudeAgentHooks } from '../../claude-agent-sdk.ts';
import type { HookSession } from '../../host/hook-session.ts';
import type { TranscriptWriter } from '../../loop/transcript.ts';
import type { ObservedHookRun } from '../../events/observed-hook-run.ts';
import {
  eventOf,
  parseToolSpec,
  RELAY_TOOL_RULES,
  unreachableAnswer,
  type RelayAnswer,
  type RelayTool,
  type RelayToolSpec,
} from './relay-dialects.ts';
import { decodeRequest, encodeAnswer } from './relay-protocol.ts';
import type { RelayPaths } from './relay-paths.ts';

export interface RelayDaemonOptions {
  readonly paths: RelayPaths;
  readonly build: string;
  /** Stop after this long without an event. */
  readonly idleMs: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Called once the socket listens. */
  readonly onListening?: () => void;
}

const SESSION_ID = /^[A-Za-z0-9._-]+$/;

type Fields = Readonly<Record<string, unknown>>;

interface OpenHooks {
  readonly session: HookSession;
  readonly callbacks: ClaudeAgentHooks;
  /** The settings files and trust record it was opened from, with their modification times. */
  readonly stamp: string;
  readonly files: readonly string[];
}

/**
 * The modification times and sizes of `files`, read synchronously: a handful of `stat` calls cost
 * microseconds, where a round trip through the thread pool per file costs a wake-up each on a busy
 * machine (this runs on every event).
 */
function stampOf(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const info = statSync(file, { bigint: true });
        return `${info.mtimeNs}:${info.size}`;
      } catch {
        return 'absent';
      }
    })
    .join('|');
}

/**
 * `HOOKWIRE_RELAY_DEBUG=FILE` (in the environment the daemon was started with): one line per
 * step of each event (wall-clock µs, pid, step) appended to FILE, beside the native client's.
 */
function debugLog(env: NodeJS.ProcessEnv): (step: string) => void {
  const file = env['HOOKWIRE_RELAY_DEBUG'];
  if (file === undefined || file === '') return () => undefined;
  return (step) => {
    const micros = (performance.timeOrigin + performance.now()) * 1000;
    const seconds = Math.floor(micros / 1e6);
    const line = `${seconds}.${String(Math.floor(micros - seconds * 1e6)).padStart(6, '0')} daemon ${process.pid} ${step}\n`;
    try {
      appendFileSync(file, line);
    } catch {
      // Debugging only.
    }
  };
}

/** Runs the daemon until it stops; resolves then. */
export async function runRelayDaemon(options: RelayDaemonOptions): Promise<void> {
  const env = options.env ?? process.env;
  const debug = debugLog(env);
  const projectDir = options.paths.projectDir;
  const { openHookSession, projectTrust } = await import('../../host/hook-session.ts');
  const { toClaudeAgentHooks } = await import('../../claude-agent-sdk.ts');
  const { TranscriptWriter, TRANSCRIPT_VERSION } = await import('../../loop/transcript.ts');
  const { trustStoreFile } = await import('../../hook-kinds/settings/trust-store.ts');

  const transcripts = new Map<string, Promise<TranscriptWriter | undefined>>();
  const transcriptOf = (
    sessionId: string,
    tool: RelayTool,
  ): Promise<TranscriptWriter | undefined> => {
    let writer = transcripts.get(sessionId);
    if (writer === undefined) {
      writer = (async () => {
        if (!SESSION_ID.test(sessionId)) return undefined;
        const opened = await TranscriptWriter.open(
          join(projectDir, '.hookwire', 'sessions', `${sessionId}.jsonl`),
        );
        const time = new Date().toISOString();
        opened.append({
          type: 'session-start',
          version: TRANSCRIPT_VERSION,
          sessionId,
          cwd: projectDir,
          source: 'startup',
          time,
        });
        opened.append({
          type: 'hook-report',
          report: {
            level: 'message',
            text: `relayed from ${RELAY_TOOL_RULES[tool].title} by hookwire relay`,
          },
          time,
        });
        return opened;
      })().catch(() => undefined);
      transcripts.set(sessionId, writer);
    }
    return writer;
  };
  const recorded = new Map<string, TranscriptWriter>();
  /** Per session, the reason of the Stop continuation last answered (see `answer`). */
  const continuing = new Map<string, unknown>();

  let hooks: Promise<OpenHooks> | undefined;
  const open = async (): Promise<OpenHooks> => {
    const trust = await projectTrust({ projectDir, env });
    const session = await openHookSession({
      projectDir,
      settingsBaseDir: projectDir,
      trust,
      env,
      dialects: false,
    });
    const files = [...session.settings.files.map((file) => file.file), trustStoreFile(env)];
    const callbacks = toClaudeAgentHooks({
      hooks: session.stack,
      recordHookRun(sessionId: string, run: ObservedHookRun) {
        recorded.get(sessionId)?.append({
          type: 'hook-run',
          turn: 0,
          modelCall: 0,
          run,
          time: new Date(run.startTime).toISOString(),
        });
      },
    });
    return { session, callbacks, files, stamp: stampOf(files) };
  };
  /** The project's hooks, opened again when a settings file or the trust record changed. */
  const current = async (): Promise<OpenHooks> => {
    if (hooks !== undefined) {
      const known = await hooks.catch(() => undefined);
      if (known !== undefined && stampOf(known.files) === known.stamp) return known;
      const stale = hooks;
      hooks = undefined;
      void stale.then((old) => old.session.close()).catch(() => undefined);
    }
    hooks ??= open();
    hooks.catch(() => {
      hooks = undefined;
    });
    return hooks;
  };

  const answer = async (spec: RelayToolSpec, text: string): Promise<RelayAnswer> => {
    const tool = spec.tool;
    let payload: Fields;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new TypeError('not a JSON object');
      payload = value as Fields;
    } catch (error) {
      return unreachableAnswer(tool, spec.event ?? '', `the payload is not JSON: ${String(error)}`);
    }
    const event = eventOf(spec, payload);
    try {
      const rules = RELAY_TOOL_RULES[tool];
      const input = rules.toClaude(payload, event);
      const claudeEvent = String(input['hook_event_name']);
      const { callbacks } = await current();
      const callback = callbacks[claudeEvent as keyof ClaudeAgentHooks]?.[0]?.hooks[0];
      if (callback === undefined) return { exit: 0, stdout: '', stderr: '' };
      const sessionId = typeof input['session_id'] === 'string' ? input['session_id'] : '';
      // Gemini CLI sends a Stop continuation as a new prompt (BeforeAgent, then AfterAgent with
      // stop_hook_active): that prompt is the turn going on, not a user's, so it neither runs the
      // prompt hooks again nor starts a new turn (which would reset the Stop budget and loop).
      if (claudeEvent === 'UserPromptSubmit' && continuing.get(sessionId) === input['prompt']) {
        continuing.delete(sessionId);
        return { exit: 0, stdout: '', stderr: '' };
      }
      const writer = await transcriptOf(sessionId, tool);
      if (writer !== undefined) recorded.set(sessionId, writer);
      const toolUseId = typeof input['tool_use_id'] === 'string' ? input['tool_use_id'] : undefined;
      const output = (await callback(
        input as unknown as Parameters<typeof callback>[0],
        toolUseId,
        { signal: new AbortController().signal },
      )) as Fields;
      writer?.commit();
      if (claudeEvent === 'Stop' && output['decision'] === 'block')
        continuing.set(sessionId, output['reason']);
      const written = rules.fromClaude(output, payload, event);
      return {
        exit: 0,
        stdout: Object.keys(written).length === 0 ? '' : JSON.stringify(written),
        stderr: '',
      };
    } catch (error) {
      return unreachableAnswer(
        tool,
        event,
        `the daemon failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  let server: Server | undefined;
  let idle: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((settle) => {
    resolveDone = settle;
  });
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearTimeout(idle);
      await new Promise<void>((settle) => {
        if (server === undefined) settle();
        else
          server.close(() => {
            settle();
          });
      });
      await unlink(options.paths.socket).catch(() => undefined);
      await unlink(options.paths.pid).catch(() => undefined);
      const open = await hooks?.catch(() => undefined);
      await open?.session.close().catch(() => undefined);
      for (const writer of transcripts.values())
        await (await writer)?.close().catch(() => undefined);
      resolveDone();
    })();
    return stopping;
  };
  const touch = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => void stop(), options.idleMs);
  };

  const serve = (socket: Socket): void => {
    touch();
    debug('connected');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('end', () => {
      debug('request read');
      const request = decodeRequest(Buffer.concat(chunks));
      if (request === undefined) {
        socket.end();
        return;
      }
      if (request.build !== options.build) {
        // A client of another build: it starts its own daemon once this one is gone.
        socket.end(`stale ${options.build}\n`, () => void stop());
        return;
      }
      const spec = parseToolSpec(request.tool);
      if (spec === undefined) {
        socket.end(encodeAnswer(unreachableAnswer('claude', '', `unknown tool ${request.tool}`)));
        return;
      }
      void answer(spec, request.payload).then((reply) => {
        debug('answered');
        socket.end(encodeAnswer(reply));
        touch();
      });
    });
  };

  // Owner-only from the moment it exists: the socket is created under this mask.
  const mask = process.umask(0o077);
  try {
    server = createServer({ allowHalfOpen: true }, serve);
    const listen = (): Promise<void> =>
      new Promise<void>((settle, reject) => {
        server?.once('error', reject);
        server?.listen(options.paths.socket, () => {
          settle();
        });
      });
    try {
      await listen();
    } catch (error) {
      // A socket left by a daemon that died answers nobody: replace it. One that answers is a
      // running daemon: this one is not needed.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (await answers(options.paths.socket)) return;
      await unlink(options.paths.socket);
      await listen();
    }
  } finally {
    process.umask(mask);
  }
  await writeFile(options.paths.pid, String(process.pid), { mode: 0o600 });
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  touch();
  // Open the hooks now, so the first event does not wait for the settings to load.
  void current().catch(() => undefined);
  options.onListening?.();
  await done;
}
