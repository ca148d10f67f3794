/**
 * `hookwire relay install|uninstall|status` (decision 0035): the relay entries in the calling
 * tools' own settings files. Install merges one entry per event beside the user's hooks (their
 * entries are never touched; an older relay entry is replaced, so running it twice changes
 * nothing); uninstall removes exactly the relay entries (recognised by `isRelayCommand`) and the
 * groups, event lists and `hooks` object that only held them. `--dry-run` prints the change as a
 * line diff and writes nothing.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isRelayCommand } from '../../hook-kinds/dialects/relay-entries.ts';
import { CliError } from '../cli-error.ts';
import { RELAY_EVENTS, RELAY_TOOL_RULES, type RelayTool } from './relay-dialects.ts';

export type RelayScope = 'project' | 'user';

type Json = Record<string, unknown>;

/** Where each tool keeps its hooks, per scope. */
export function settingsFileOf(
  tool: RelayTool,
  scope: RelayScope,
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const root = scope === 'project' ? projectDir : (env['HOME'] ?? homedir());
  return join(root, ...RELAY_TOOL_RULES[tool].settingsFile[scope]);
}

const TOOL_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'BeforeTool',
  'AfterTool',
]);

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(file: string): Promise<Json | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file}: not valid JSON (${String(error)}); fix it, then install again`, {
      code: 'relay_settings_invalid',
    });
  }
  if (!isRecord(value))
    throw new CliError(`${file}: $ must be a JSON object; fix it, then install again`, {
      code: 'relay_settings_invalid',
    });
  return value;
}

/** True for a hook entry a relay install wrote (its `command`, or Copilot's `bash`). */
function isRelayEntry(hook: unknown): boolean {
  if (!isRecord(hook)) return false;
  return ['command', 'bash'].some((field) => {
    const command = hook[field];
    return typeof command === 'string' && isRelayCommand(command);
  });
}

/**
 * `settings` without any relay entry (and without what held only relay entries): in a group's
 * `hooks` (the `events` layout) or directly in an event's list (the `flat` layout).
 */
export function withoutRelay(settings: Json): Json {
  const hooks = settings['hooks'];
  if (!isRecord(hooks)) return settings;
  const kept: Json = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      kept[event] = groups;
      continue;
    }
    const remaining = groups.flatMap((group: unknown) => {
      if (isRelayEntry(group)) return [];
      if (!isRecord(group) || !Array.isArray(group['hooks'])) return [group];
      const entries = (group['hooks'] as unknown[]).filter((hook) => !isRelayEntry(hook));
      if (entries.length === group['hooks'].length) return [group];
      return entries.length === 0 ? [] : [{ ...group, hooks: entries }];
    });
    if (remaining.length > 0) kept[event] = remaining;
  }
  const { hooks: _hooks, ...rest } = settings;
  return Object.keys(kept).length === 0 ? rest : { ...rest, hooks: kept };
}

/** `settings` with one relay entry per event (after the user's own groups or hooks). */
export function withRelay(
  settings: Json,
  tool: RelayTool,
  events: readonly string[],
  command: (event: string) => string,
): Json {
  const rules = RELAY_TOOL_RULES[tool];
  const base = withoutRelay(settings);
  const hooks: Json = { ...(isRecord(base['hooks']) ? base['hooks'] : {}) };
  for (const event of events) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const entry = rules.entry(command(event), event);
    hooks[event] =
      rules.layout === 'flat'
        ? [...groups, entry]
        : [
            ...groups,
            TOOL_EVENTS.has(event) ? { matcher: '*', hooks: [entry] } : { hooks: [entry] },
          ];
  }
  // A new Copilot or Cursor file says its format's version first.
  const fresh = Object.keys(settings).length === 0;
  return rules.layout === 'flat' && fresh ? { version: 1, hooks } : { ...base, hooks };
}

/** A line diff of two texts (`-`/`+`/` ` lines), for `--dry-run`. */
export function lineDiff(file: string, before: string, after: string): string {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  // Longest common subsequence table (settings files are small).
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (table[i] as number[])[j] =
        a[i] === b[j]
          ? ((table[i + 1] as number[])[j + 1] as number) + 1
          : Math.max(
              (table[i + 1] as number[])[j] as number,
              (table[i] as number[])[j + 1] as number,
            );
  const lines = [`--- ${file}`, `+++ ${file}`];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(` ${a[i] ?? ''}`);
      i++;
      j++;
    } else if (
      j < b.length &&
      (i === a.length ||
        ((table[i] as number[])[j + 1] as number) >= ((table[i + 1] as number[])[j] as number))
    ) {
      lines.push(`+${b[j] ?? ''}`);
      j++;
    } else {
      lines.push(`-${a[i] ?? ''}`);
      i++;
    }
  }
  return lines.join('\n') + '\n';
}

/** The indentation `text` uses (two spaces when it shows none), so a rewrite keeps its style. */
function indentOf(text: string): string | number {
  const match = /\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? 2;
}

const text = (settings: Json | undefined, indent: string | number = 2): string =>
  settings === undefined ? '' : `${JSON.stringify(settings, null, indent)}\n`;

/** What an install or uninstall did to one file. */
export interface RelayFileChange {
  readonly file: string;
  readonly changed: boolean;
  /** The diff (always computed; printed for `--dry-run`). */
  readonly diff: string;
}

async function writeAtomically(file: string, content: string | undefined): Promise<void> {
  if (content === undefined) {
    await unlink(file).catch(() => undefined);
    return;
  }
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.hookwire-${process.pid}.tmp`;
  await writeFile(temp, content);
  await rename(temp, file);
}

/** Installs (or, with `remove`, uninstalls) the relay in one tool's file. */
export async function changeRelay(options: {
  readonly tool: RelayTool;
  readonly file: string;
  readonly remove: boolean;
  readonly events?: readonly string[];
  /** The relay entry's command for one event. */
  readonly command: (event: string) => string;
  readonly dryRun: boolean;
}): Promise<RelayFileChange> {
  const current = await readJson(options.file);
  const original = current === undefined ? '' : await readFile(options.file, 'utf8');
  const known = RELAY_EVENTS[options.tool];
  const events = options.events ?? known;
  for (const event of events)
    if (!known.includes(event))
      throw new CliError(
        `--events: ${options.tool} has no event "${event}" the relay serves; use some of ${known.join(', ')}`,
        { code: 'relay_event_unknown' },
      );
  const next = options.remove
    ? current === undefined
      ? undefined
      : withoutRelay(current)
    : withRelay(current ?? {}, options.tool, events, options.command);
  // A file that held only relay entries (install made it) goes with them.
  const empty = next !== undefined && Object.keys(next).every((key) => key === 'version');
  const written = empty && options.remove ? undefined : next;
  // An unchanged file is left as it is, byte for byte; a changed one keeps its indentation.
  const same = JSON.stringify(written) === JSON.stringify(current);
  const before = original;
  const after = same ? original : text(written, indentOf(original));
  const changed = before !== after;
  if (changed && !options.dryRun)
    await writeAtomically(options.file, written === undefined ? undefined : after);
  return {
    file: options.file,
    changed,
    diff: changed ? lineDiff(options.file, before, after) : '',
  };
}

/** The events with a relay entry in `file` (empty when none, or no file). */
export async function relayEventsIn(file: string): Promise<string[]> {
  if (!existsSync(file)) return [];
  const settings = await readJson(file).catch(() => undefined);
  const hooks = settings?.['hooks'];
  if (!isRecord(hooks)) return [];
  return Object.entries(hooks)
    .filter(
      ([, groups]) =>
        Array.isArray(groups) &&
        groups.some(
          (group: unknown) =>
            isRelayEntry(group) ||
            (isRecord(group) &&
              Array.isArray(group['hooks']) &&
              (group['hooks'] as unknown[]).some(isRelayEntry)),
        ),
    )
    .map(([event]) => event);
}
