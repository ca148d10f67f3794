/**
 * A dialect's command hook answer, by the rules of the tool it was written for.
 */
import { externalSide, type HookEventName } from '../../events/index.ts';
import type { CommandResult } from '../../supervision/index.ts';
import { parseHookStdout } from '../../wire/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import { failureAnswer, type DialectCommandRules, type HookAnswer } from '../hook-kind.ts';
import { DIALECTS } from './dialect.ts';
import { dialectCommand } from './dialect-shell.ts';
import { foreignAnswer, normalizeForeignAnswer } from './translate.ts';
import type { DialectName } from './vocabulary.ts';

/** `command not found` and `not executable`, as the shell reports them; exit 2 blocks. */
const NOT_FOUND = 127;
const NOT_EXECUTABLE = 126;
const BLOCKING_EXIT = 2;

const RULES = new Map<DialectName, DialectCommandRules>();

/** The command rules of `dialect` a kind that runs commands applies (one object per dialect). */
export function dialectCommandRules(dialect: DialectName): DialectCommandRules {
  let rules = RULES.get(dialect);
  if (rules === undefined) {
    rules = {
      commandLine: (command) => dialectCommand(command, dialect),
      answer: (event, result, plain) => dialectAnswer(event, result, dialect, plain),
    };
    RULES.set(dialect, rules);
  }
  return rules;
}

/**
 * What a dialect's command run answered, by that tool's rules: Gemini CLI reads stdout's JSON
 * before the exit code (exit 2 still blocks: the safe reading), and a Gemini hook killed by a
 * signal blocks (Gemini lets it through, a fail-open bug); at Claude Code's `Stop` and
 * `SubagentStop` a JSON
 * `reason` on stdout is the reason even with exit 2. A JSON answer has the fields hookwire does
 * not implement removed (`normalizeForeignAnswer`) before it is decoded.
 */
export function dialectAnswer(
  event: HookEventName,
  result: CommandResult,
  dialect: DialectName,
  plain: () => HookAnswer,
): HookAnswer {
  const rules = DIALECTS[dialect];
  const parsed = parseHookStdout(result.stdout);
  const json = parsed.kind === 'json' && isJsonObject(parsed.value) ? parsed.value : undefined;
  const reason = typeof json?.['reason'] === 'string' ? json['reason'] : undefined;
  if (result.termination === 'exited') {
    const exitCodes = rules.exitCodes;
    if (result.exitCode === BLOCKING_EXIT && exitCodes?.twoIsContextAt?.has(event) === true)
      return {
        kind: 'json',
        value: {
          hookSpecificOutput: { hookEventName: event, additionalContext: result.stderr.trim() },
        },
      };
    if (
      result.exitCode === BLOCKING_EXIT &&
      exitCodes?.twoBlocksAt !== undefined &&
      !exitCodes.twoBlocksAt.has(event)
    )
      return failureAnswer(
        'warning',
        `exited 2, which does not block ${event} in ${rules.title}: ignored${result.stderr.trim() === '' ? '' : ` (${result.stderr.trim()})`}`,
      );
    // A tool with answers of its own reads no plain text: stdout that is no JSON object is shown
    // to nobody and read as no answer (never as context, as a Claude Code hook's would be).
    if (rules.envelope !== undefined && result.exitCode === 0 && json === undefined)
      return { kind: 'json', value: null };
    if (result.exitCode === null && rules.killedHookDenies && externalSide(event).can.deny)
      return {
        kind: 'block',
        reason: `killed by ${result.signal ?? 'a signal'}: denied (a Gemini CLI hook that does not answer is not an allow in hookwire)`,
        how: 'a signal',
        verb: 'was killed',
        missingReason: 'no answer',
      };
    if (
      result.exitCode === BLOCKING_EXIT &&
      (event === 'Stop' || event === 'SubagentStop' || rules.jsonBeforeExitCode)
    )
      return {
        kind: 'block',
        reason: reason ?? result.stderr.trim(),
        how: 'exit 2',
        verb: 'exited 2',
        missingReason: 'no reason on stderr or in its JSON',
      };
    if (
      json !== undefined &&
      (result.exitCode === 0 ||
        (rules.jsonBeforeExitCode &&
          result.exitCode !== NOT_FOUND &&
          result.exitCode !== NOT_EXECUTABLE))
    )
      return {
        kind: 'json',
        value: normalizeForeignAnswer(event, foreignAnswer(dialect, event, json)).value,
      };
  }
  return plain();
}
