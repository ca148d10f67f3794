/**
 * The public entry of the loop: `createAgent(options)` → `agent.openSession()` → `session.run()`.
 *
 * ```ts
 * const agent = createAgent({ model, tools, hooks, cwd: process.cwd() });
 * const session = await agent.openSession();
 * const handle = session.run('Tidy the workspace', { streaming: true });
 * for await (const event of handle) render(event);
 * const { status, result } = await handle.result;
 * await session.close('exit');
 * ```
 */
import { randomUUID } from '../content/random-id.ts';
import { access } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { GenerationSettings, LanguageModel, Message } from '../content/index.ts';
import type { AgentHook } from '../hooks/agent-hook.ts';
import type { HookReport } from '../events/context.ts';
import {
  DEFAULT_CLOSING_HOOK_BUDGET_MS,
  DEFAULT_INVALID_TOOL_CALLS_PER_TURN,
  DEFAULT_MAX_MODEL_CALLS,
  DEFAULT_STOP_CONTINUATIONS_PER_TURN,
} from './budgets.ts';
import { contextBudget } from './compact-step.ts';
import { LoopError } from './loop-error.ts';
import type { AgentConfig, SessionState } from './run-state.ts';
import { Session } from './session.ts';
import type { ToolRegistry } from './tool-registry.ts';
import { acquireSessionLock } from './session-lock.ts';
import { startSessionSpan } from './run-telemetry.ts';
import { activeTracer, type LoopTracer } from './tracer.ts';
import {
  lastTurnOf,
  readTranscript,
  repairToolResults,
  TranscriptWriter,
  TRANSCRIPT_VERSION,
  type RepairedHistory,
} from './transcript.ts';
import type { AgentPermissions, PermissionApprover } from './permission-step.ts';
import { subagentConfig, withAgentTool, type SubagentOptions } from './subagent.ts';
import { isoTime } from './timestamp.ts';
import { HookRunCollector, type StepRunner } from './step-runner.ts';

/** Options of `createAgent`. */
export interface AgentOptions {
  /** The model every call goes to (unless a model-selection hook picks another). */
  readonly model: LanguageModel;
  /** The tools offered to the model. Default: none. */
  readonly tools?: ToolRegistry;
  /** The one hook every event goes through — in practice a `HookStack`. Default: none. */
  readonly hooks?: AgentHook;
  /** The system instruction of every request (overrides `settings.systemInstruction`). */
  readonly systemInstruction?: string;
  /** Generation settings of every request (a request patch can change them per call). */
  readonly settings?: GenerationSettings;
  /** The agent's name, given to hooks as `HookContext.agentName`. */
  readonly agentName?: string;
  /** Model calls per run, retries and Stop continuations included. Default 50. */
  readonly maxModelCalls?: number;
  /** Stop continuations per turn (consecutive Stop blocks a turn follows). Default 8, as Claude Code. */
  readonly stopContinuationsPerTurn?: number;
  /**
   * Invalid tool calls per turn (unknown tool, tool not offered, arguments not matching the
   * schema) that no `onInvalidToolCall` hook decides and that are answered with the error as the
   * tool's result, so the model can correct itself. Default 5; 0 fails the turn on the first one.
   * See `budgets.ts`.
   */
  readonly invalidToolCallsPerTurn?: number;
  /** The project directory: tools and hooks run there. */
  readonly cwd: string;
  /** Where transcripts go, as `<sessionsDir>/<sessionId>.jsonl`. Default `<cwd>/.hookwire/sessions`. */
  readonly sessionsDir?: string;
  /** Time given to Interrupt, StopFailure and SessionEnd hooks, in ms. Default 1500. */
  readonly closingHookBudgetMs?: number;
  /**
   * Permission rules and mode, checked for every tool call after PreToolUse (see
   * `AgentPermissions`). Default: none, and every call runs.
   */
  readonly permissions?: AgentPermissions;
  /**
   * A person who answers permission prompts (`hookwire run` at a terminal): a call that the
   * rules, the mode or a PreToolUse hook's `ask` leave undecided, and that no PermissionRequest
   * hook decides, is put to them. Default none: such a call is refused (headless).
   */
  readonly approver?: PermissionApprover;
  /**
   * Where the run's spans go (session, turns, model calls, tool calls, hook runs; see
   * docs/telemetry.md). Default none: no span is built. For OpenTelemetry, pass
   * `otelTracer()` from `hookwire/otel`.
   */
  readonly tracer?: LoopTracer;
  /**
   * SENSITIVE. Keep in the transcript what each hook received (its payload) and each tool result
   * before PostToolUse hooks reviewed it. Default false: neither is written, since both may hold
   * what a redacting hook removed (see `TranscriptWriterOptions`).
   */
  readonly recordPayloads?: boolean;
  /**
   * Subagents: adds the built-in `agent` tool, which runs a child loop of one of these agent
   * types (see `subagent.ts`). Default: none (no `agent` tool).
   */
  readonly subagents?: SubagentOptions;
  /**
   * The context budget in tokens: when the next request would exceed it, the history is
   * compacted first (see `compact-step.ts`). Default: the model's `contextWindow` when its
   * adapter knows it, else off. A provider's too-long rejection compacts in any case. This option
   * applies to subagents too; without it, a subagent type on a model of its own gets that model's
   * window.
   */
  readonly maxContextTokens?: number;
  /**
   * Executes every model call, tool call and hook run (see `step-runner.ts`). Default none: each
   * runs directly. `hookwire/restate` passes a runner that journals each step.
   */
  readonly stepRunner?: StepRunner;
}

/** Options of `Agent.openSession`. */
export interface OpenSessionOptions {
  /** The session id (letters, digits, `.`, `_`, `-`). Default: a fresh UUID. */
  readonly sessionId?: string;
  /**
   * Continue the session `sessionId` from its transcript: the history is rebuilt from it (a
   * truncated last line is skipped with a warning; tool calls a crash left without results are
   * answered from their `tool-result` records, or as "interrupted: may or may not have run",
   * recorded in the transcript with a warning) and SessionStart fires with `source: 'resume'`.
   */
  readonly resume?: boolean;
  /** The transcript file. Default `<sessionsDir>/<sessionId>.jsonl`. */
  readonly transcriptPath?: string;
  /**
   * Continue from this history instead of a transcript (a session whose history is kept
   * elsewhere, e.g. a durable session's object state): it is written to the new transcript as
   * its first messages, and SessionStart fires with `source: 'resume'` when it is not empty.
   * Not with `resume`.
   */
  readonly history?: readonly Message[];
  /** With `history`: the turns it already holds (the next turn is numbered after them). */
  readonly turns?: number;
}

/** An agent: a model, tools and hooks, ready to open sessions. */
export interface Agent {
  /** The resolved options (defaults applied). */
  readonly config: AgentConfig;
  readonly cwd: string;
  readonly sessionsDir: string;
  /**
   * Opens (or resumes) a session and fires SessionStart. The session is locked until it is
   * closed: opening it again meanwhile, in this process or another, throws `LoopError`
   * (`session_locked`) naming the holder; the lock of a process that died is taken over (see
   * `session-lock.ts`).
   */
  openSession(options?: OpenSessionOptions): Promise<Session>;
}

const NO_HOOKS: AgentHook = Object.freeze({ name: 'no hooks' });
const SESSION_ID = /^[A-Za-z0-9._-]+$/;

/** Creates an agent. Throws `RangeError` for a non-positive budget. */
/** The records a resume reads: the history's (see `repairToolResults`) and the turn count's. */
const HISTORY_RECORD_TYPES: ReadonlySet<string> = new Set([
  'message',
  'pending-message',
  'tool-result',
  'compaction',
  'turn-start',
]);

export function createAgent(options: AgentOptions): Agent {
  const maxModelCalls = options.maxModelCalls ?? DEFAULT_MAX_MODEL_CALLS;
  const stopContinuationsPerTurn =
    options.stopContinuationsPerTurn ?? DEFAULT_STOP_CONTINUATIONS_PER_TURN;
  if (!Number.isInteger(maxModelCalls) || maxModelCalls < 1) {
    throw new RangeError(`maxModelCalls must be a positive integer, got ${maxModelCalls}`);
  }
  if (!Number.isInteger(stopContinuationsPerTurn) || stopContinuationsPerTurn < 0) {
    throw new RangeError(
      `stopContinuationsPerTurn must be a non-negative integer, got ${stopContinuationsPerTurn}`,
    );
  }
  const invalidToolCallsPerTurn =
    options.invalidToolCallsPerTurn ?? DEFAULT_INVALID_TOOL_CALLS_PER_TURN;
  if (!Number.isInteger(invalidToolCallsPerTurn) || invalidToolCallsPerTurn < 0) {
    throw new RangeError(
      `invalidToolCallsPerTurn must be a non-negative integer, got ${invalidToolCallsPerTurn}`,
    );
  }
  const settings =
    options.systemInstruction === undefined
      ? options.settings
      : { ...options.settings, systemInstruction: options.systemInstruction };
  const subagents = options.subagents === undefined ? undefined : subagentConfig(options.subagents);
  const config: AgentConfig = {
    model: options.model,
    tools: subagents === undefined ? options.tools : withAgentTool(options.tools, subagents.types),
    hooks: options.hooks ?? NO_HOOKS,
    settings,
    agentName: options.agentName,
    maxModelCalls,
    stopContinuationsPerTurn,
    invalidToolCallsPerTurn,
    closingHookBudgetMs: options.closingHookBudgetMs ?? DEFAULT_CLOSING_HOOK_BUDGET_MS,
    permissions: options.permissions,
    approver: options.approver,
    tracer: options.tracer,
    subagents,
    depth: 0,
    maxContextTokens: options.maxContextTokens,
    recordPayloads: options.recordPayloads === true,
    stepRunner: options.stepRunner,
  };
  // The budget compaction will use: the option, else the model's window.
  const budget = contextBudget(config);
  if (budget !== undefined && (!Number.isInteger(budget) || budget < 1))
    throw new RangeError(`maxContextTokens must be a positive integer, got ${budget}`);
  const cwd = resolve(options.cwd);
  const sessionsDir =
    options.sessionsDir === undefined
      ? join(cwd, '.hookwire', 'sessions')
      : resolve(cwd, options.sessionsDir);

  return {
    config,
    cwd,
    sessionsDir,
    async openSession(sessionOptions: OpenSessionOptions = {}): Promise<Session> {
      const resume = sessionOptions.resume ?? false;
      if (
        resume &&
        sessionOptions.sessionId === undefined &&
        sessionOptions.transcriptPath === undefined
      ) {
        throw new LoopError(
          'session_not_found',
          'Resuming needs the sessionId (or transcriptPath) of the session to continue.',
        );
      }
      const sessionId = sessionOptions.sessionId ?? randomUUID();
      if (!SESSION_ID.test(sessionId)) {
        throw new LoopError(
          'session_id_invalid',
          `Session id ${JSON.stringify(sessionId)} may contain only letters, digits, ".", "_" and "-".`,
        );
      }
      const transcriptPath =
        sessionOptions.transcriptPath === undefined
          ? join(sessionsDir, `${sessionId}.jsonl`)
          : isAbsolute(sessionOptions.transcriptPath)
            ? sessionOptions.transcriptPath
            : resolve(cwd, sessionOptions.transcriptPath);
      const existsNow = (): Promise<boolean> =>
        access(transcriptPath).then(
          () => true,
          () => false,
        );
      const existingIdError = (): LoopError =>
        new LoopError(
          'session_exists',
          `Session ${sessionId} already has a transcript at ${transcriptPath}; resume it (resume: true) or choose another id.`,
        );
      // A new session never reuses an id, whoever holds it: say so before looking at the lock.
      if (!resume && (await existsNow())) throw existingIdError();
      const lock = await acquireSessionLock(transcriptPath, sessionId);
      let transcript: TranscriptWriter | undefined;
      try {
        const exists = await existsNow();
        const history: Message[] = [];
        const pendingReports: HookReport[] = [];
        let turnCounter = 0;
        let repaired: RepairedHistory | undefined;
        if (resume) {
          if (!exists) {
            throw new LoopError(
              'session_not_found',
              `No transcript for session ${sessionId} at ${transcriptPath}; check the id, or open a new session without resume.`,
            );
          }
          const contents = await readTranscript(transcriptPath, { types: HISTORY_RECORD_TYPES });
          repaired = repairToolResults(contents.records);
          history.push(...repaired.history);
          turnCounter = lastTurnOf(contents.records);
          for (const warning of contents.warnings)
            pendingReports.push({ level: 'warning', text: warning });
          if (repaired.orphans.length > 0)
            pendingReports.push({
              level: 'warning',
              text: `the transcript was damaged: ${repaired.orphans.length} tool result(s) without their call (${repaired.orphans
                .slice(0, 5)
                .map((orphan) => `call ${orphan.callId} of ${orphan.toolName}`)
                .join(
                  ', ',
                )}${repaired.orphans.length > 5 ? ', …' : ''}) were turned into text in the resumed history, so that every provider accepts it`,
            });
        } else if (exists) {
          throw existingIdError();
        } else if (sessionOptions.history !== undefined) {
          history.push(...sessionOptions.history);
          turnCounter = sessionOptions.turns ?? 0;
        }
        transcript = await TranscriptWriter.open(transcriptPath, {
          recordPayloads: config.recordPayloads,
        });
        const source = resume || history.length > 0 ? 'resume' : 'startup';
        const tracer = activeTracer(config.tracer);
        const span =
          tracer === undefined
            ? undefined
            : startSessionSpan(tracer, sessionId, source, config.agentName);
        const state: SessionState = {
          info: { sessionId, transcriptPath, cwd },
          history,
          transcript,
          lock,
          queue: [],
          turnCounter,
          pendingContext: undefined,
          pendingReports,
          ...(config.stepRunner === undefined ? {} : { hookRuns: new HookRunCollector() }),
          span,
        };
        const time = isoTime();
        transcript.append({
          type: 'session-start',
          version: TRANSCRIPT_VERSION,
          sessionId,
          cwd,
          source,
          time,
        });
        if (!resume)
          for (const message of history)
            transcript.append({ type: 'message', turn: turnCounter, message, time });
        const restoredMessages = repaired?.restored ?? new Set<number>();
        for (const report of repaired?.added ?? []) {
          const calls = report.message.blocks.length;
          // The answer at the end of the history is recorded, so the transcript's messages are the
          // history again; one further back (an older transcript) is rebuilt on every read.
          const tail = report.index === history.length - 1;
          // An AI message read from its write-ahead alone is recorded first, before its answer.
          const restored = restoredMessages.has(report.index - 1);
          if (tail && restored)
            transcript.append({
              type: 'message',
              turn: turnCounter,
              message: history[report.index - 1] as Message,
              time,
            });
          if (tail)
            transcript.append({
              type: 'message',
              turn: turnCounter,
              message: report.message,
              time,
            });
          pendingReports.push({
            level: 'warning',
            text: `the session was interrupted in the middle of a tool step: ${calls} tool call(s) left without a recorded result were answered from the transcript (a call with no result at all as "interrupted: the tool may or may not have run")${restored ? `; the text of the answer that made the calls was lost (only its calls and reasoning were on record)` : ''}${tail ? '' : '; an older transcript, so the answer is rebuilt on each resume'}`,
          });
        }
        for (const report of pendingReports)
          transcript.append({ type: 'hook-report', report, time });
        transcript.commitOrThrow();
        const session = new Session(config, state, source);
        await session.start();
        return session;
      } catch (error) {
        await transcript?.close();
        await lock.release();
        throw error;
      }
    },
  };
}
