/**
 * Runs one settings group's hooks for one payload: in parallel (the default) or, with
 * `sequential: true`, one after another with each seeing the input as rewritten by the ones
 * before it. Either way the outcomes are combined in configuration order.
 */
import { externalSide } from '../../events/index.ts';
import {
  boundedText,
  type HookRunDecision,
  type ObservedHookRun,
} from '../../events/observed-hook-run.ts';
import { combineOutcomes, type CombinedOutcome } from './combine-outcomes.ts';
import { encodeHookPayload, type HookPayloadEncoding } from '../../wire/index.ts';
import { kindOf, type HookConfig } from '../registry.ts';
import {
  failureAnswer,
  hookEnvironment,
  type HookKindStates,
  type HookProcessOptions,
} from '../hook-kind.ts';
import {
  decisionOf,
  interpretAnswer,
  type HookRunOutcome,
  type HookRunRecord,
} from '../hook-run.ts';
import type { CommandRunner } from '../../supervision/index.ts';
import { verdictOf, type HookRunVerdict } from './hook-verdict.ts';
import type { HookGroupConfig } from '../settings/index.ts';
import { dialectCommandRules } from '../dialects/dialect-answer.ts';
import { dialectEnvFile } from '../dialects/claude/claude-env-file.ts';

export interface HookGroupRunOptions {
  readonly runner: CommandRunner;
  /** The project directory: hooks run there and get it as `HOOKWIRE_PROJECT_DIR`. */
  readonly projectDir: string;
  readonly sessionId: string;
  /** Cancels the running hooks (their process groups are killed). */
  readonly signal?: AbortSignal;
  /** SIGTERM → SIGKILL grace; the runner's default when absent. */
  readonly killGraceMs?: number;
  /** Called once per hook run, in completion order, as soon as it settles. */
  readonly onHookRun?: (record: HookRunRecord, verdict: HookRunVerdict) => void;
  /** How hooks with `"environment": "scrubbed"` or `"sandbox": true` are confined. */
  readonly confinement?: HookProcessOptions;
  /**
   * Called once per hook run with its observation (decision, timing, bounded payload and
   * answer): what the loop records in the transcript and traces. Built only when given.
   */
  readonly onObservedRun?: (run: ObservedHookRun) => void;
  /** The dialect the group's settings were written for, in observations. Default `hookwire`. */
  readonly dialect?: string;
  /**
   * The session's resources of the kinds that keep some (process hooks' processes, the prompt
   * hooks' judge); a hook whose kind needs them and finds none answers a failure.
   */
  readonly kinds?: HookKindStates;
  /**
   * The session's `CLAUDE_ENV_FILE` (`dialects/claude-env-file.ts`), given to the `SessionStart`
   * hooks of Claude Code files.
   */
  readonly claudeEnvFile?: string;
}

export interface HookGroupRun {
  /** One outcome per hook, in configuration order. */
  readonly outcomes: readonly HookRunOutcome[];
  readonly combined: CombinedOutcome;
}

type Payload = Readonly<Record<string, unknown>>;

/**
 * Options for hooks that ask to be confined (a hook that does not ask inherits the environment
 * and runs unconfined, as the user's trusted code). Both defaults are the strict ones.
 */
export type { HookProcessOptions } from '../hook-kind.ts';

async function runOne(
  group: HookGroupConfig,
  index: number,
  payload: Payload,
  input: HookPayloadEncoding,
  options: HookGroupRunOptions,
  env: Record<string, string>,
): Promise<HookRunOutcome> {
  const hook = group.hooks[index];
  if (hook === undefined) throw new RangeError(`group ${group.path} has no hook ${index}`);
  const startTime = Date.now();
  const encoded = input;
  const outcome = !encoded.ok
    ? notStartedOutcome(group, hook, encoded.problem)
    : await kindOf(hook).run(hook, {
        event: group.event,
        registeredAs: group.registeredAs,
        input: encoded.text,
        payload,
        // Encoded once for every hook of the group, and only when a kind reads the bytes.
        get inputBytes() {
          return encoded.bytes;
        },
        projectDir: options.projectDir,
        env,
        runner: options.runner,
        ...(group.dialect === undefined
          ? {}
          : { dialect: group.dialect, dialectRules: dialectCommandRules(group.dialect) }),
        ...(options.confinement === undefined ? {} : { confinement: options.confinement }),
        ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
      });
  // What the run decided on its own, once for its verdict and its observation.
  const decision = decisionOf(group.event, outcome);
  options.onHookRun?.(outcome.record, verdictOf(group.event, outcome, group.dialect, decision));
  if (options.onObservedRun !== undefined)
    options.onObservedRun(observe(group, payload, outcome, input, startTime, options, decision));
  return outcome;
}

/**
 * The outcome of a hook never started because its payload is out of bounds (see
 * `encodeHookPayload`): a failure to answer, so a warning or, failing closed, a denial.
 */
function notStartedOutcome(
  group: HookGroupConfig,
  hook: HookConfig,
  problem: string,
): HookRunOutcome {
  return interpretAnswer(
    group.event,
    group.registeredAs,
    hook,
    {
      event: group.registeredAs,
      name: hook.name,
      kind: hook.type,
      target: kindOf(hook).target(hook),
      exitCode: null,
      signal: null,
      durationMs: 0,
      stdoutTruncated: false,
      stderrTruncated: false,
    },
    failureAnswer('error', `could not start: ${problem}`),
  );
}

function observe(
  group: HookGroupConfig,
  payload: Payload,
  outcome: HookRunOutcome,
  input: HookPayloadEncoding,
  startTime: number,
  options: HookGroupRunOptions,
  decision: HookRunDecision,
): ObservedHookRun {
  const { record, io } = outcome;
  const toolCallId =
    typeof payload['tool_call_id'] === 'string' ? payload['tool_call_id'] : undefined;
  const reason = outcome.denial ?? record.detail;
  return {
    event: group.registeredAs,
    hook: record.name,
    kind: outcome.hook.type,
    dialect: options.dialect ?? group.dialect ?? 'hookwire',
    ...(group.matcherSource === '' ? {} : { matcher: group.matcherSource }),
    decision,
    status: record.status,
    ...(reason === undefined ? {} : { reason }),
    startTime,
    durationMs: record.durationMs,
    exitCode: record.exitCode,
    signal: record.signal,
    timedOut: io?.timedOut === true,
    failedClosed: record.status === 'failed-closed',
    ...(toolCallId === undefined ? {} : { toolCallId }),
    payload: boundedText(input.ok ? input.text : input.problem),
    ...(io === undefined || io.stdout === '' ? {} : { answer: boundedText(io.stdout) }),
    ...(io === undefined || io.stderr === '' ? {} : { stderr: boundedText(io.stderr) }),
  };
}

/** The payload the next sequential hook sees, with the previous hook's rewrite applied. */
function rewrittenPayload(
  group: HookGroupConfig,
  payload: Payload,
  outcome: HookRunOutcome,
): Payload {
  const specific = outcome.output?.hookSpecificOutput as Record<string, unknown> | undefined;
  const external: {
    chainPayload?(payload: Payload, specific: Payload): Payload;
  } = externalSide(group.event) as never;
  if (specific === undefined) return payload;
  return external.chainPayload?.(payload, specific) ?? payload;
}

/** The hook environment last built: a run's hooks all get the same one (its session, its project). */
let lastEnvironment:
  | {
      readonly projectDir: string;
      readonly sessionId: string;
      readonly env: Record<string, string>;
    }
  | undefined;

/** `hookEnvironment`, built once per session and project rather than for every event. */
function environmentOf(projectDir: string, sessionId: string): Record<string, string> {
  const last = lastEnvironment;
  if (last?.projectDir === projectDir && last.sessionId === sessionId) return last.env;
  const env = hookEnvironment(projectDir, sessionId);
  lastEnvironment = { projectDir, sessionId, env };
  return env;
}

/** Whether a group composes serially (a kind with `HookKind.serial`), found once per group. */
const serialGroups = new WeakMap<HookGroupConfig, boolean>();

function isSerial(group: HookGroupConfig): boolean {
  let serial = serialGroups.get(group);
  if (serial === undefined) {
    serial = group.hooks.some((hook) => kindOf(hook).serial === true);
    serialGroups.set(group, serial);
  }
  return serial;
}

/** Runs the group's hooks for `payload` (the complete stdin object) and combines the outcomes. */
export async function runHookGroup(
  group: HookGroupConfig,
  payload: Payload,
  options: HookGroupRunOptions,
): Promise<HookGroupRun> {
  // Shared by every hook of the run (read-only for the kinds: `HookRunRequest.env`).
  const base = environmentOf(options.projectDir, options.sessionId);
  const envFile = dialectEnvFile(group.dialect);
  const env =
    options.claudeEnvFile !== undefined && envFile?.event === group.event
      ? { ...base, [envFile.variable]: options.claudeEnvFile }
      : base;
  // The arguments the first hook saw, for argument rewrites (only PreToolUse admits them).
  const args = payload['tool_input'];
  let outcomes: HookRunOutcome[];
  // A kind that composes serially (`HookKind.serial`) runs the group in order, a denial ending it.
  const serial = isSerial(group);
  if ((!group.sequential && !serial) || group.hooks.length === 1) {
    // Serialised once for every hook of the group: they all see the same input.
    const input = encodeHookPayload(payload);
    // One hook (the common group) is awaited as it is: no `Promise.all` around it.
    outcomes =
      group.hooks.length === 1
        ? [await runOne(group, 0, payload, input, options, env)]
        : await Promise.all(
            group.hooks.map((_, index) => runOne(group, index, payload, input, options, env)),
          );
  } else {
    outcomes = [];
    let current = payload;
    for (let index = 0; index < group.hooks.length; index++) {
      const outcome = await runOne(group, index, current, encodeHookPayload(current), options, env);
      outcomes.push(outcome);
      if (serial && outcome.denial !== undefined) break;
      current = rewrittenPayload(group, current, outcome);
    }
  }
  return { outcomes, combined: combineOutcomes(group.event, outcomes, args) };
}
