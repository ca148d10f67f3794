/**
 * A hookwire session embedded in another agent (an AI SDK app, a Claude Agent SDK agent): the
 * hooks `hookwire run` would load for the same directory and settings files — through the same
 * `openHookSession` — plus the app's in-process hooks, one session id, an optional transcript,
 * `SessionStart` when it opens and `SessionEnd` when it closes. No SDK is imported here: each
 * embedding adds its own calls on top (`hookwire/ai-sdk`, `hookwire/claude-agent-sdk`).
 */
import { randomUUID } from '../../content/random-id.ts';
import { join, resolve } from 'node:path';
import type { Message } from '../../content/index.ts';
import {
  openHookSession,
  projectTrust,
  settingsPermissions,
  type HookSession,
} from '../../host/hook-session.ts';
import type {
  AgentPermissions,
  PermissionMode,
  PermissionToolKinds,
} from '../../hooks/permissions/index.ts';
import type { HookRunRecord } from '../../hook-kinds/hook-run.ts';
import type { EffectiveSettings } from '../../hook-kinds/settings/effective-settings.ts';
import type { SettingsEnvironment } from '../../hook-kinds/settings/settings-layer.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import type { HookReport, SessionInfo } from '../../events/context.ts';
import type { ObservedHookRun } from '../../events/observed-hook-run.ts';
import type { SessionEndReason } from '../../events/index.ts';
import { RunHookContext } from '../../hooks/hook-context.ts';
import type { HookStack } from '../../hooks/stack/hook-stack.ts';
import {
  DEFAULT_CLOSING_HOOK_BUDGET_MS,
  DEFAULT_STOP_CONTINUATIONS_PER_TURN,
} from '../../loop/budgets.ts';
import { LoopError } from '../../loop/loop-error.ts';
import type { RunStatus } from '../../loop/run-events.ts';
import { settleWithinBudget } from '../../loop/run-state.ts';
import {
  TRANSCRIPT_VERSION,
  TranscriptWriter,
  type TranscriptRecord,
} from '../../loop/transcript.ts';
import { reportToStderr } from './default-report.ts';
import type { HookwireCore } from './run-scope.ts';

/** Options of an embedded hookwire session (`createHookwire`). */
export interface HookwireOptions {
  /** The project directory: its `.hookwire/` settings load and hooks run there. Default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * Extra settings files, as `hookwire run --settings`: loaded after every layer (managed,
   * user, project, local), in order; each must exist. Relative paths resolve against `cwd`.
   */
  readonly settings?: readonly string[];
  /**
   * In-process hooks (the same `AgentHook` interface `hookwire run`'s loop calls), composed in
   * one `HookStack` after the settings' command hooks.
   */
  readonly hooks?: readonly AgentHook[];
  /** The session id hooks see as `session_id`. Default: a fresh UUID. */
  readonly sessionId?: string;
  /**
   * Write the session's transcript (the loop's JSONL format) to
   * `<cwd>/.hookwire/sessions/<sessionId>.jsonl`, or to the given path. Hooks get its path as
   * `transcript_path` (empty when there is none). Default `false`.
   */
  readonly transcript?: boolean | string;
  /**
   * SENSITIVE. Keep each hook's payload in the transcript (see `AgentOptions.recordPayloads`).
   * Default: the settings' `recordPayloads`, else false.
   */
  readonly recordPayloads?: boolean;
  /**
   * The permission mode, as `hookwire run --permission-mode`: overrides the settings'
   * `permissions.defaultMode`. The permission layer is on when a settings file has `permissions`
   * or a mode is given here or there; wrapped tools are then checked after PreToolUse (a deny
   * rule refuses, an ask fires `PermissionRequest`, nobody deciding refuses). Default: none.
   */
  readonly permissionMode?: PermissionMode;
  /**
   * Which of the app's tools read files, edit files or run commands, for the permission modes
   * (reads need no approval, `acceptEdits` runs edits, `plan` refuses them) and for rules like
   * `shell(npm run *)`, which match the `command` argument. Default: hookwire's built-in names
   * (`read_file`, `glob`, `grep`; `write_file`, `edit_file`; `shell`); any other tool is asked
   * about unless a rule allows it.
   */
  readonly permissionToolKinds?: PermissionToolKinds;
  /** Given to hooks as `HookContext.agentName`. */
  readonly agentName?: string;
  /** Stop continuations per turn (a Stop hook's block), as `hookwire run`. Default 8. */
  readonly stopContinuationsPerTurn?: number;
  /** Time given to Interrupt, StopFailure and SessionEnd hooks, in ms. Default 1500. */
  readonly closingHookBudgetMs?: number;
  /**
   * Receives hook messages (`systemMessage`) and warnings (a hook that failed, timed out or
   * answered a wrong shape; a hook skipped as untrusted). Default: warnings are written to
   * stderr, one line each, and messages are not shown; both go to the transcript when there is
   * one. Pass a function to route them elsewhere (a logger, the app's UI); `() => {}` silences.
   */
  readonly onReport?: (report: HookReport) => void;
  /** Called for every command-hook run as it settles. */
  readonly onHookRun?: (record: HookRunRecord) => void;
  /**
   * Trust every hook of the project's own settings files, as `hookwire run --trust-project`.
   * Default: as `hookwire run` — the hooks the trust record holds for the project (`hookwire
   * hooks trust`), or all of them when `HOOKWIRE_TRUST_PROJECT=1`; the others are skipped with a
   * warning (see `onReport`). Managed, user and `settings` files need no trust.
   */
  readonly trustProject?: boolean;
  /**
   * Environment for settings discovery and trust (`HOOKWIRE_HOME`, `HOOKWIRE_MANAGED_SETTINGS`,
   * `HOOKWIRE_TRUST_PROJECT`). Default `process.env`.
   */
  readonly env?: SettingsEnvironment & { readonly HOOKWIRE_TRUST_PROJECT?: string | undefined };
  /**
   * Claude Code plugin directories, as `hookwire run --plugin-dir` (relative to `cwd`): their
   * settings hooks and their mods (`hooks/hooks.json` `modules`) run in this session's stack,
   * beside the plugins the settings name. A mod hookwire cannot serve refuses the session
   * (`ModsRefusedError`, naming what it needs) unless `modsPartial`.
   */
  readonly pluginDirs?: readonly string[];
  /** `--mods-partial`: a refused mod is left out, with a warning (`onReport`), instead. */
  readonly modsPartial?: boolean;
}

const SESSION_ID = /^[A-Za-z0-9._-]+$/;
const now = (): string => new Date().toISOString();

/** An open embedded session: what every embedding builds on. */
export class EmbeddedSession implements HookwireCore {
  readonly hooks: HookStack;
  readonly session: SessionInfo;
  readonly agentName: string | undefined;
  readonly settings: EffectiveSettings;
  readonly stopContinuationsPerTurn: number;
  readonly closingHookBudgetMs: number;
  readonly permissions: AgentPermissions | undefined;
  /** SessionStart context waiting for the first prompt. */
  pendingContext: string | undefined;
  readonly #hookSession: HookSession;
  readonly #transcript: TranscriptWriter | undefined;
  readonly #onReport: (report: HookReport) => void;
  #turns = 0;
  /** False when the host agent fires its own SessionStart/SessionEnd (the Claude Agent SDK). */
  readonly #sessionEvents: boolean;
  #closing: Promise<void> | undefined;

  /** @internal Use `openEmbeddedSession`. */
  constructor(
    hookSession: HookSession,
    session: SessionInfo,
    transcript: TranscriptWriter | undefined,
    options: HookwireOptions,
    sessionEvents: boolean,
  ) {
    this.#sessionEvents = sessionEvents;
    this.#hookSession = hookSession;
    this.hooks = hookSession.stack;
    this.settings = hookSession.settings;
    this.session = session;
    this.#transcript = transcript;
    this.agentName = options.agentName;
    this.#onReport = options.onReport ?? reportToStderr;
    this.stopContinuationsPerTurn =
      options.stopContinuationsPerTurn ?? DEFAULT_STOP_CONTINUATIONS_PER_TURN;
    this.closingHookBudgetMs = options.closingHookBudgetMs ?? DEFAULT_CLOSING_HOOK_BUDGET_MS;
    const permissions = settingsPermissions(hookSession.settings, options.permissionMode);
    this.permissions =
      permissions === undefined || options.permissionToolKinds === undefined
        ? permissions
        : { ...permissions, toolKinds: options.permissionToolKinds };
  }

  get sessionId(): string {
    return this.session.sessionId;
  }

  /** The transcript's path, `undefined` without `transcript`. */
  get transcriptPath(): string | undefined {
    return this.#transcript?.path;
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  report(report: HookReport): void {
    this.record({ type: 'hook-report', report, time: now() });
    this.#onReport(report);
  }

  /** Appends a transcript record (nothing without a transcript). */
  record(record: TranscriptRecord): void {
    this.#transcript?.append(record);
  }

  /** Records one hook run (a `hook-run` transcript record) of the turn in progress. */
  recordHookRun(run: ObservedHookRun, modelCall: number): void {
    if (this.#transcript === undefined) return;
    this.record({
      type: 'hook-run',
      turn: this.#turns,
      modelCall,
      run,
      time: new Date(run.startTime).toISOString(),
    });
  }

  /** The `recordHookRun` option of a context outside any model call (none without a transcript). */
  #sessionRecording(): { recordHookRun?: (run: ObservedHookRun) => void } {
    if (this.#transcript === undefined) return {};
    return {
      recordHookRun: (run) => {
        this.recordHookRun(run, 0);
      },
    };
  }

  /** The number of the turn in progress (the last started); 0 before the first. */
  get currentTurn(): number {
    return this.#turns;
  }

  /** True when the session writes a transcript (records are worth building). */
  get recording(): boolean {
    return this.#transcript !== undefined;
  }

  /**
   * Starts a turn: its number, recorded. The transcript is written at once (the UserPromptSubmit
   * hooks that come next may read it).
   */
  startTurn(prompt: string): number {
    const turn = ++this.#turns;
    if (this.#transcript !== undefined) {
      this.record({ type: 'turn-start', turn, prompt, time: now() });
      this.#transcript.commit();
    }
    return turn;
  }

  /** Records the end of a turn. */
  endTurn(turn: number, status: RunStatus, reason: string | undefined): void {
    if (this.#transcript === undefined) return;
    this.record(
      reason === undefined
        ? { type: 'turn-end', turn, status, time: now() }
        : { type: 'turn-end', turn, status, reason, time: now() },
    );
  }

  /**
   * Records the messages a turn added to the conversation; `messages` is only called when there
   * is a transcript (converting them costs time nobody needs otherwise).
   */
  recordMessages(turn: number, messages: () => readonly Message[]): void {
    if (this.#transcript === undefined) return;
    const time = now();
    for (const message of messages()) this.record({ type: 'message', turn, message, time });
    // Written at once: a Stop hook that reads the transcript finds this answer, not the one before.
    this.#transcript.commit();
  }

  /** A context for the closing hooks (Interrupt, StopFailure, SessionEnd): a fresh budgeted signal. */
  closingContext(): RunHookContext {
    return new RunHookContext({
      ...(this.agentName === undefined ? {} : { agentName: this.agentName }),
      signal: AbortSignal.timeout(this.closingHookBudgetMs),
      session: this.session,
      report: (report) => {
        this.report(report);
      },
      ...this.#sessionRecording(),
    });
  }

  /** Awaits a closing hook within the budget; a hook that does not answer is reported, never thrown. */
  async settleClosing<T>(
    event: string,
    fire: (context: RunHookContext) => T | Promise<T>,
  ): Promise<T | undefined> {
    const context = this.closingContext();
    const settled = await settleWithinBudget(fire(context), context.signal);
    if (settled.ok) return settled.value;
    this.report({
      level: 'warning',
      text: `the ${event} hook did not complete: ${settled.error.message}`,
      event,
    });
    return undefined;
  }

  /** @internal Fires SessionStart; its context waits for the first prompt. */
  async start(): Promise<void> {
    const hooks = this.hooks;
    if (!this.#sessionEvents || !hooks.observes('sessionStart')) return;
    const context = new RunHookContext({
      ...(this.agentName === undefined ? {} : { agentName: this.agentName }),
      session: this.session,
      report: (report) => {
        this.report(report);
      },
      ...this.#sessionRecording(),
    });
    this.#transcript?.commit();
    const action = await hooks.onSessionStart(context, { source: 'startup' });
    if (action.kind === 'stop') {
      this.report({
        level: 'warning',
        text: `a SessionStart hook asked to stop ("${action.reason}"); SessionStart is advisory, so the session opens`,
        event: 'sessionStart',
      });
    } else if (action.additionalContext !== undefined && action.additionalContext !== '') {
      this.pendingContext = action.additionalContext;
    }
  }

  /**
   * Fires SessionEnd (within the closing budget), then stops every hook process and server the
   * session started and closes the transcript. Idempotent.
   */
  close(reason: SessionEndReason = 'exit'): Promise<void> {
    this.#closing ??= this.#close(reason);
    return this.#closing;
  }

  async #close(reason: SessionEndReason): Promise<void> {
    try {
      if (this.#sessionEvents && this.hooks.observes('sessionEnd')) {
        this.#transcript?.commit();
        await this.settleClosing('sessionEnd', (context) =>
          this.hooks.onSessionEnd(context, { reason }),
        );
      }
      this.record({ type: 'session-end', reason, time: now() });
    } finally {
      try {
        await this.#hookSession.close();
      } finally {
        await this.#transcript?.close();
      }
    }
  }
}

/**
 * Opens an embedded session: loads the settings (`SettingsError` listing every issue when a file
 * is invalid), composes the hooks, opens the transcript, and fires SessionStart (unless
 * `lifecycle.sessionEvents` is false: the host agent fires its own session events).
 */
export async function openEmbeddedSession(
  options: HookwireOptions = {},
  lifecycle: { readonly sessionEvents: boolean } = { sessionEvents: true },
): Promise<EmbeddedSession> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const sessionId = options.sessionId ?? randomUUID();
  if (!SESSION_ID.test(sessionId)) {
    throw new LoopError(
      'session_id_invalid',
      `Session id ${JSON.stringify(sessionId)} may contain only letters, digits, ".", "_" and "-".`,
    );
  }
  const trust = await projectTrust({
    projectDir: cwd,
    ...(options.trustProject === undefined ? {} : { trustAll: options.trustProject }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const hookSession = await openHookSession({
    projectDir: cwd,
    settingsFiles: options.settings ?? [],
    settingsBaseDir: cwd,
    hooks: options.hooks ?? [],
    trust,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.pluginDirs === undefined ? {} : { pluginDirs: options.pluginDirs }),
    ...(options.modsPartial === undefined ? {} : { modsPartial: options.modsPartial }),
    ...(options.permissionMode === undefined ? {} : { permissionMode: options.permissionMode }),
    ...(options.onHookRun === undefined ? {} : { onHookRun: options.onHookRun }),
  });
  let transcript: TranscriptWriter | undefined;
  try {
    if (options.transcript !== undefined && options.transcript !== false) {
      const path =
        options.transcript === true
          ? join(cwd, '.hookwire', 'sessions', `${sessionId}.jsonl`)
          : resolve(cwd, options.transcript);
      transcript = await TranscriptWriter.open(path, {
        recordPayloads: options.recordPayloads ?? hookSession.settings.recordPayloads,
      });
      transcript.append({
        type: 'session-start',
        version: TRANSCRIPT_VERSION,
        sessionId,
        cwd,
        source: 'startup',
        time: now(),
      });
    }
    const session = new EmbeddedSession(
      hookSession,
      { sessionId, transcriptPath: transcript?.path ?? '', cwd },
      transcript,
      options,
      lifecycle.sessionEvents,
    );
    for (const warning of hookSession.modWarnings)
      session.report({ level: 'warning', text: `hookwire: ${warning}` });
    const skipped = hookSession.settings.untrustedHooks;
    if (skipped > 0)
      session.report({
        level: 'warning',
        text: `hookwire: skipped ${skipped} project hook${skipped === 1 ? '' : 's'} as not trusted; review and trust them with: hookwire hooks trust --cwd ${cwd} (or pass trustProject: true)`,
      });
    await session.start();
    return session;
  } catch (error) {
    await hookSession.close();
    await transcript?.close();
    throw error;
  }
}
