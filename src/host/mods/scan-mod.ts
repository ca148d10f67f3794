/**
 * The static scan of a mod's modules, as `claude plugin validate` does it: the events its `on`
 * calls hook and the `$.noun.method` calls it makes, read from the source of every module and
 * every plugin file they import. A mod that needs an event or a capability hookwire does not
 * provide is refused at load, naming each one (a refused guard must never become a silent
 * allow). Claude Code requires `on` and `$` to be spelled literally, which is what makes this
 * scan sound for the modules it loads.
 */
import { readFile } from 'node:fs/promises';
import { extname, relative } from 'node:path';
import { SERVED_CAPABILITIES } from './mod-capabilities.ts';
import { MODULE_SUFFIXES, resolveModImport } from './resolve-import.ts';

/** The settings-hook events a `classic.<Event>` hook can wrap (Claude Code's names). */
export const CLASSIC_EVENTS: readonly string[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SessionStart',
  'SessionEnd',
];

/** The engine events hookwire raises for mods. */
export const SERVED_EVENTS: ReadonlySet<string> = new Set([
  'tool.call',
  'tool.check',
  'prompt.submit',
  'session.start',
  'session.end',
  'turn.complete',
  // Raised by `$.command.run` only (nobody types a slash command in a hookwire run), as a
  // command never runs under `claude -p` unless asked; `command.describe` has no menu to
  // describe for, so it is never raised.
  'command.run',
  'command.describe',
  ...CLASSIC_EVENTS.map((event) => `classic.${event}`),
]);

/** What the scan found in one mod. */
export interface ModScan {
  /** Patterns its `on` calls hook, in source order, each once. */
  readonly events: readonly string[];
  /** `noun.method` of its `$` calls, each once. */
  readonly calls: readonly string[];
  /** Events (patterns) hookwire does not raise. */
  readonly missingEvents: readonly string[];
  /** `$` methods hookwire does not serve, as `$.noun.method`. */
  readonly missingCalls: readonly string[];
  /** Files that cannot load (JSX, unreadable), one line each. */
  readonly problems: readonly string[];
}

/** What hookwire loads: every suffix Claude Code takes but JSX (UI mods are not served). */
const LOADABLE = new Set(
  MODULE_SUFFIXES.filter((suffix) => suffix !== '.tsx' && suffix !== '.jsx'),
);
const ON_CALL = /\bon\(\s*(['"`])([^'"`]+)\1/g;
const DOLLAR_CALL = /\$\s*\.\s*([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)/g;
// `import … from './x'`, `export … from './x'`, `import './x'`; `import type` / `export type`
// are erased before anything loads, so they name no file to follow.
const RELATIVE_IMPORT =
  /\b(import|export)(\s+type\b)?[^'";]*?\bfrom\s*(['"])(\.{1,2}\/[^'"]*)\3|\bimport\s*(['"])(\.{1,2}\/[^'"]*)\5/g;

/** Whether hookwire raises events for `pattern` (`x`, `ns.*`, `*`, `!x`). */
export function patternServed(pattern: string): boolean {
  if (pattern === '*' || pattern.startsWith('!')) return true;
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -1);
    return (
      [...SERVED_EVENTS].some((event) => event.startsWith(prefix)) ||
      [...SERVED_CAPABILITIES].some((call) => call.startsWith(prefix))
    );
  }
  // A hook on a `$` call other mods make is served when that call is.
  return SERVED_EVENTS.has(pattern) || SERVED_CAPABILITIES.has(pattern);
}

/** Scans `modules` (absolute paths) and the plugin files they import, under `root`. */
export async function scanMod(root: string, modules: readonly string[]): Promise<ModScan> {
  const events: string[] = [];
  const calls: string[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const queue = [...modules];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    const shown = relative(root, file);
    const suffix = extname(file);
    if (suffix === '.tsx' || suffix === '.jsx') {
      problems.push(
        `${shown}: JSX modules (.tsx, .jsx) are not loaded by hookwire (UI mods are not served)`,
      );
      continue;
    }
    if (!LOADABLE.has(suffix)) {
      problems.push(`${shown}: a module is ${[...LOADABLE].join(', ')}`);
      continue;
    }
    let source: string;
    try {
      source = await readFile(file, 'utf8');
    } catch (error) {
      problems.push(
        `${shown}: cannot be read (${error instanceof Error ? error.message : String(error)})`,
      );
      continue;
    }
    for (const match of source.matchAll(ON_CALL))
      if (match[2] !== undefined && !events.includes(match[2])) events.push(match[2]);
    for (const match of source.matchAll(DOLLAR_CALL)) {
      const call = `${match[1] ?? ''}.${match[2] ?? ''}`;
      if (match[1] === 'plugin' || calls.includes(call)) continue;
      calls.push(call);
    }
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      if (match[2] !== undefined) continue;
      const specifier = match[4] ?? match[6];
      if (specifier === undefined) continue;
      const target = resolveModImport(file, specifier);
      if (target === undefined)
        problems.push(
          `cannot import "${specifier}" (from ${shown}): no such file under ${root} (tried ${MODULE_SUFFIXES.join(', ')} and the folder's index)`,
        );
      else queue.push(target);
    }
  }
  return {
    events,
    calls,
    missingEvents: events.filter((pattern) => !patternServed(pattern)),
    missingCalls: calls.filter((call) => !SERVED_CAPABILITIES.has(call)).map((call) => `$.${call}`),
    problems,
  };
}

/** One line saying why a mod is refused, or `undefined` when nothing is missing. */
export function refusalOf(name: string, root: string, scan: ModScan): string | undefined {
  const parts: string[] = [];
  if (scan.missingEvents.length > 0)
    parts.push(`events hookwire does not raise: ${scan.missingEvents.join(', ')}`);
  if (scan.missingCalls.length > 0)
    parts.push(`capabilities hookwire does not provide: ${scan.missingCalls.join(', ')}`);
  parts.push(...scan.problems);
  return parts.length === 0 ? undefined : `mod ${name} (${root}) needs ${parts.join('; ')}`;
}
