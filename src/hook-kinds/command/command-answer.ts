/**
 * The command kind's answer: what a finished command run means, in the terms every hook kind
 * shares (`HookAnswer`), and its interpretation for the event it ran for.
 */
import type { HookEventName, RegisteredEventName } from '../../events/index.ts';
import type { CommandResult } from '../../supervision/index.ts';
import { failureAnswer, type DialectCommandRules, type HookAnswer } from '../hook-kind.ts';
import {
  interpretAnswer,
  type HookRunFacts,
  type HookRunIo,
  type HookRunOutcome,
} from '../hook-run.ts';
import type { CommandHookConfig } from './command-config.ts';
import { formatDuration } from '../duration.ts';

/** `command not found`, as the shell reports it. */
export const NOT_FOUND = 127;
/** Found but not executable, as the shell reports it. */
export const NOT_EXECUTABLE = 126;
/** The exit code that blocks (Claude Code's convention, and hookwire's). */
export const BLOCKING_EXIT = 2;

/**
 * Interprets one command run: exit 0 is its stdout as the answer; exit 2 blocks with stderr as
 * the reason; any other exit is a warning. A failure to answer — timeout, missing command,
 * spawn error, kill, cancellation, undecodable output, crash — is a warning, or a denial saying
 * which failure it was when the hook fails closed (see `interpretAnswer`).
 */
export function interpretRun(
  event: HookEventName,
  registeredAs: RegisteredEventName,
  hook: CommandHookConfig,
  result: CommandResult,
  dialect?: DialectCommandRules,
): HookRunOutcome {
  const facts: HookRunFacts = {
    event: registeredAs,
    name: hook.name,
    kind: hook.type,
    target: hook.command,
    exitCode: result.exitCode,
    signal: result.signal,
    durationMs: Math.round(result.durationMs),
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
  };
  const io: HookRunIo = {
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.termination === 'timeout',
  };
  return {
    ...interpretAnswer(
      event,
      registeredAs,
      hook,
      facts,
      dialect === undefined
        ? commandAnswer(hook, result)
        : dialect.answer(event, result, () => commandAnswer(hook, result)),
    ),
    io,
  };
}

/** What a command run answered, in the terms every hook kind shares. */
export function commandAnswer(hook: CommandHookConfig, result: CommandResult): HookAnswer {
  const failure = failureAnswer;
  switch (result.termination) {
    case 'timeout':
      return failure('timeout', `timed out after ${formatDuration(hook.timeoutMs)}`);
    case 'aborted':
      return failure('error', 'was cancelled before it answered');
    case 'spawn-error':
      return failure('error', `could not start: ${result.spawnError ?? 'unknown spawn error'}`);
    case 'exited':
      break;
  }
  if (result.exitCode === null)
    return failure('error', `was killed by ${result.signal ?? 'a signal'}${stderrTail(result)}`);
  if (result.exitCode === NOT_FOUND)
    return failure(
      'error',
      `is missing: the command was not found (exit 127)${stderrTail(result)}`,
    );
  if (result.exitCode === NOT_EXECUTABLE)
    return failure('error', `is not executable (exit 126)${stderrTail(result)}`);
  if (result.exitCode === BLOCKING_EXIT)
    return {
      kind: 'block',
      reason: result.stderr.trim(),
      how: 'exit 2',
      verb: 'exited 2',
      missingReason: 'no reason on stderr',
    };
  if (result.exitCode !== 0)
    return failure('warning', `crashed (exit ${result.exitCode})${stderrTail(result)}`);
  return { kind: 'stdout', text: result.stdout, note: truncatedNote(result) };
}

function stderrTail(result: CommandResult): string {
  const text = result.stderr.trim();
  if (text === '') return '';
  const tail = text.length > 500 ? `…${text.slice(-500)}` : text;
  return `: ${tail}`;
}

function truncatedNote(result: CommandResult): string {
  return result.stdoutTruncated ? '; stdout was truncated at the output cap' : '';
}
