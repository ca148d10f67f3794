import { writeStdout } from '../output/stdout.ts';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fireCommandHooks, type FireResult } from '../../hook-kinds/group/index.ts';
import type { HookSession } from '../../host/hook-session.ts';
import { HOOK_EVENT_ALIASES, HOOK_EVENT_NAMES, canonicalEventName } from '../../events/index.ts';
import { CliError } from '../cli-error.ts';
import { parseJsonObjectInput } from '../json-input.ts';
import { readStdin } from '../read-stdin.ts';
import {
  openCommandHookSession,
  printSettingsWarnings,
  untrustedNotice,
  type SettingsCommandOptions,
} from '../settings-options.ts';

/** Options of `hookwire hooks fire`. */
export interface HooksFireOptions extends SettingsCommandOptions {
  /** A payload file, or `-` for stdin. */
  readonly input?: string;
}

/**
 * Reads the payload. `--input FILE` reads the file (relative to the working directory) and
 * `--input -` reads stdin. Without `--input`, stdin is read when it is not a terminal (a pipe or
 * a file), so `echo '{…}' | hookwire hooks fire EVENT` works; with a terminal the payload is
 * `{}`. Empty input is `{}` too.
 */
async function readPayload(input: string | undefined): Promise<Record<string, unknown>> {
  if (input === '-' || (input === undefined && !process.stdin.isTTY)) {
    return parseJsonObjectInput(await readStdin(), 'stdin');
  }
  if (input === undefined) return {};
  const file = resolve(input);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `Cannot read the payload file ${file}: ${error instanceof Error ? error.message : String(error)}. Pass an existing JSON file, or - to read stdin.`,
      { code: 'hook_input_invalid' },
    );
  }
  return parseJsonObjectInput(text, file);
}

function assertKnownEvent(event: string): void {
  if (canonicalEventName(event) !== undefined) return;
  const aliases = Object.entries(HOOK_EVENT_ALIASES)
    .map(([alias, canonical]) => `${alias} (${canonical})`)
    .join(', ');
  throw new CliError(
    `Unknown event "${event}". Valid events: ${HOOK_EVENT_NAMES.join(', ')}; aliases: ${aliases}.`,
    { code: 'hook_input_invalid' },
  );
}

/**
 * Fires EVENT's hooks of an open command hook session on `payload`, as `hooks fire` does: the
 * session's runner, project directory, kind resources and confinement. `hookwire ahp serve`
 * answers each AHP event through it too. Throws `HookwireError` (`hook_input_invalid`) for an
 * invalid payload.
 */
export function fireInSession(
  session: HookSession,
  event: string,
  payload: Readonly<Record<string, unknown>>,
  signal?: AbortSignal,
): Promise<FireResult> {
  return fireCommandHooks(session.settings, event, payload, {
    runner: session.runner,
    projectDir: session.projectDir,
    kinds: session.kinds,
    confinement: { passEnvironment: session.settings.passEnvironment },
    ...(signal === undefined ? {} : { signal }),
  });
}

/**
 * `hookwire hooks fire EVENT`: runs the hooks configured for EVENT (matched as the loop matches
 * them) on the payload, completed with the base fields it lacks, and prints the combined
 * `FireResult` as one JSON document on stdout. Returns 0 whatever the decision; an unknown event,
 * an unreadable or invalid payload, or invalid settings throw (exit 1, message on stderr).
 */
export async function hooksFireCommand(event: string, options: HooksFireOptions): Promise<number> {
  assertKnownEvent(event);
  // The helper runner (the default): it outlives a kill of this process (Ctrl-C, SIGKILL of the
  // group) and then kills every process the hooks started.
  const session = await openCommandHookSession(options);
  try {
    const notice = untrustedNotice(session.settings, options);
    if (notice !== undefined) process.stderr.write(`${notice}\n`);
    printSettingsWarnings(session.settings);
    const payload = await readPayload(options.input);
    const result = await fireInSession(session, event, payload);
    writeStdout(JSON.stringify(result, null, 2) + '\n');
    return 0;
  } finally {
    await session.close();
  }
}
