/**
 * The project files a hook's command runs, so that trust covers their content and not only the
 * settings entry: a trusted `./hooks/lint.sh` that the model's shell or a `git pull` rewrites is
 * a different hook, untrusted until trusted again (decision 0022).
 *
 * Which words of a command count (a small shell-word reader, not a shell: it errs towards
 * naming fewer files, and a file it misses is no less trusted than before this existed):
 *
 * - the command word of each simple command (split at `;`, `&`, `|`, `(`, `)` and newlines,
 *   leading `NAME=value` assignments and `exec`/`command`/`env`/`nohup`/`time` skipped) when it
 *   is a path (has a `/`);
 * - the script given to an interpreter (`node x.mjs`, `python3 x.py`, `bash x.sh`, `deno run x.ts`
 *   …): its first argument that is not an option, unless an option gives the code inline first
 *   (`-e`, `-m`, `-p`, `--eval`, `--print`); for `sh|bash|zsh -c 'STRING'`, the files STRING runs;
 * - every word that starts with the project directory, as hooks write it
 *   (`$HOOKWIRE_PROJECT_DIR/…`, `"$CLAUDE_PROJECT_DIR"/…`, `${GEMINI_PROJECT_DIR}/…`).
 *
 * Only paths inside the project count (the user's own files elsewhere are theirs); redirection
 * targets never do (a log the hook appends to changes on every run).
 */
import { sha256 } from '../../wire/sha256.ts';
import { statSync, type BigIntStats } from 'node:fs';
import { PROJECT_DIR_VARIABLES } from '../dialects/dialect-names.ts';
import { failureAnswer, type HookExecution } from '../hook-kind.ts';
import { readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';

/** The variables hooks get that hold the project directory (see `hookEnvironment`). */
const PROJECT_VARIABLES = new Set(['HOOKWIRE_PROJECT_DIR', ...PROJECT_DIR_VARIABLES]);

/** Commands that run a script named by their first non-option argument. */
const INTERPRETERS = new Set([
  'node',
  'nodejs',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'uv',
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'fish',
  'ruby',
  'perl',
  'php',
  'lua',
  'pwsh',
  'Rscript',
]);

/** The interpreters whose `-c` takes a shell command. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);

/** Interpreter subcommands before the script (`deno run x.ts`, `uv run x.py`, `bun run x.ts`). */
const RUN_SUBCOMMANDS = new Set(['run']);

/** Options whose presence means the code is given inline (or by module name), not by a file. */
const INLINE_CODE_OPTIONS = new Set(['-c', '-e', '-m', '-p', '--eval', '--print', '--command']);

/** Words skipped before the command word. */
const PREFIX_WORDS = new Set(['exec', 'command', 'env', 'nohup', 'time', 'builtin']);

/** One word of a command: its text with quotes removed, and whether it had an unknown `$…`. */
interface Word {
  readonly text: string;
  readonly dynamic: boolean;
}

/**
 * The simple commands of `command` as words: quotes and backslashes removed, the project
 * variables replaced by `projectDir`, redirection targets and comments dropped.
 */
export function simpleCommands(command: string, projectDir: string): Word[][] {
  const commands: Word[][] = [];
  let words: Word[] = [];
  let text = '';
  let dynamic = false;
  let inWord = false;
  let skipNext = false;
  const endWord = (): void => {
    if (inWord) {
      if (skipNext) skipNext = false;
      else words.push({ text, dynamic });
    }
    text = '';
    dynamic = false;
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  /** Reads `$NAME` or `${NAME}` at `index` (the `$`); returns the index after it. */
  const variable = (index: number): number => {
    const braced = command[index + 1] === '{';
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(command.slice(index + (braced ? 2 : 1)));
    if (match === null || (braced && command[index + 2 + match[0].length] !== '}')) {
      text += '$';
      dynamic = true;
      return index + 1;
    }
    if (PROJECT_VARIABLES.has(match[0])) text += projectDir;
    else {
      text += `$${match[0]}`;
      dynamic = true;
    }
    return index + (braced ? 3 : 1) + match[0].length;
  };
  let index = 0;
  while (index < command.length) {
    const char = command[index] ?? '';
    if (char === "'") {
      const end = command.indexOf("'", index + 1);
      text += command.slice(index + 1, end < 0 ? command.length : end);
      inWord = true;
      index = end < 0 ? command.length : end + 1;
    } else if (char === '"') {
      inWord = true;
      index += 1;
      while (index < command.length && command[index] !== '"') {
        const inner = command[index] ?? '';
        if (inner === '\\' && /["\\$`]/.test(command[index + 1] ?? '')) {
          text += command[index + 1] ?? '';
          index += 2;
        } else if (inner === '$') index = variable(index);
        else {
          if (inner === '`') dynamic = true;
          text += inner;
          index += 1;
        }
      }
      index += 1;
    } else if (char === '\\') {
      if (command[index + 1] !== '\n') {
        text += command[index + 1] ?? '';
        inWord = true;
      }
      index += 2;
    } else if (char === '$') {
      inWord = true;
      index = variable(index);
    } else if (char === '`') {
      dynamic = true;
      text += char;
      inWord = true;
      index += 1;
    } else if (char === '#' && !inWord) {
      const end = command.indexOf('\n', index);
      index = end < 0 ? command.length : end;
    } else if (char === '>' || char === '<') {
      // `2>file`: the descriptor number is not a word.
      if (inWord && /^\d+$/.test(text)) {
        text = '';
        inWord = false;
      }
      endWord();
      while (/[<>&|]/.test(command[index] ?? '')) index += 1;
      // `>&2`, `2>&1`: a descriptor, not a file, follows.
      skipNext = true;
    } else if (/[;&|()\n]/.test(char)) {
      endCommand();
      index += 1;
    } else if (/\s/.test(char)) {
      endWord();
      index += 1;
    } else {
      text += char;
      inWord = true;
      index += 1;
    }
  }
  endCommand();
  return commands;
}

/** The words of one simple command that name files it runs (see the module comment). */
function runWords(words: readonly Word[], projectDir: string): string[] {
  let at = 0;
  while (at < words.length) {
    const word = words[at]?.text ?? '';
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || PREFIX_WORDS.has(word) || word.startsWith('-'))
      at += 1;
    else break;
  }
  const head = words[at];
  if (head === undefined || head.dynamic) return [];
  const named: string[] = [];
  if (head.text.includes('/')) named.push(head.text);
  if (INTERPRETERS.has(basename(head.text))) {
    let next = at + 1;
    if (RUN_SUBCOMMANDS.has(words[next]?.text ?? '')) next += 1;
    for (; next < words.length; next += 1) {
      const word = words[next];
      if (word?.text === '-c' && SHELLS.has(basename(head.text))) {
        // `sh -c 'STRING'`: the files the string runs.
        const inner = words[next + 1];
        if (inner !== undefined && !inner.dynamic)
          for (const nested of simpleCommands(inner.text, projectDir))
            for (const path of runWords(nested, projectDir)) named.push(path);
        break;
      }
      if (word === undefined || word.dynamic || INLINE_CODE_OPTIONS.has(word.text)) break;
      if (word.text.startsWith('-')) continue;
      named.push(word.text);
      break;
    }
  }
  const inProject = projectDir.endsWith(sep) ? projectDir : projectDir + sep;
  for (const word of words)
    if (!word.dynamic && word.text.startsWith(inProject) && !named.includes(word.text))
      named.push(word.text);
  return named;
}

/**
 * The paths (relative to `projectDir`, sorted, without duplicates) of the files inside the
 * project that `command` runs: see the module comment for which words count. `aliases` are other
 * spellings of the project directory (its real path, when it was reached through a link): an
 * absolute path under either names the same file.
 */
export function namedProjectFiles(
  command: string,
  projectDir: string,
  aliases: readonly string[] = [],
): string[] {
  const root = resolve(projectDir);
  const roots = [root, ...aliases.map((alias) => resolve(alias)).filter((alias) => alias !== root)];
  const paths = new Set<string>();
  for (const words of simpleCommands(command, root)) {
    for (const word of [
      ...runWords(words, root),
      ...roots.slice(1).flatMap((alias) => runWords(words, alias)),
    ]) {
      for (const base of roots) {
        const absolute = isAbsolute(word) ? resolve(word) : resolve(base, word);
        const rest = relative(base, absolute);
        if (rest !== '' && !rest.startsWith('..') && !isAbsolute(rest)) {
          paths.add(rest);
          break;
        }
      }
    }
  }
  return [...paths].sort();
}

/** What a named file is, for the trust record: `sha256:HEX` of its content, or `absent`. */
export type NamedFileState = string;

/** Files larger than this are fingerprinted by size alone (a script is never this large). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

/** The state of one file: `sha256:HEX`, `absent`, or `undefined` for a directory or device. */
export async function namedFileState(path: string): Promise<NamedFileState | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    if (info.size > MAX_HASHED_BYTES) return `size:${info.size}`;
    return `sha256:${sha256()
      .update(await readFile(path))
      .digest('hex')}`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'absent';
    return `unreadable:${code ?? 'error'}`;
  }
}

/**
 * The files `command` runs inside the project, each with its state (`namedFileState`); `undefined`
 * when it names none (so a hook that runs no project file keeps the identity it always had).
 */
export async function namedFilesOf(
  command: string,
  projectDir: string,
  aliases: readonly string[] = [],
): Promise<Readonly<Record<string, NamedFileState>> | undefined> {
  const paths = namedProjectFiles(command, projectDir, aliases);
  if (paths.length === 0) return undefined;
  const states = await Promise.all(paths.map((path) => namedFileState(resolve(projectDir, path))));
  const files: Record<string, NamedFileState> = {};
  paths.forEach((path, index) => {
    const state = states[index];
    if (state !== undefined) files[path] = state;
  });
  return Object.keys(files).length === 0 ? undefined : files;
}

/** The paths of `recorded` whose state differs from `current` (changed, added or removed). */
export function changedNamedFiles(
  recorded: Readonly<Record<string, NamedFileState>>,
  current: Readonly<Record<string, NamedFileState>>,
): string[] {
  const paths = new Set([...Object.keys(recorded), ...Object.keys(current)]);
  return [...paths].filter((path) => recorded[path] !== current[path]).sort();
}

/**
 * The files of `namedFiles` (relative to `projectDir`) whose content is no longer what was read
 * when the hook was loaded and trusted: checked again just before each run, so a script
 * rewritten during a session (by the model's shell, outside the sandbox or by renaming its
 * directory) is not run in the trusted one's place. Each file's content is hashed again unless
 * `verifiedStates` vouches that it is the very file it hashed before (see `VerifiedStates`).
 */
export async function namedFilesChangedSince(
  namedFiles: Readonly<Record<string, NamedFileState>>,
  projectDir: string,
  states: VerifiedStates = verifiedStates,
): Promise<string[]> {
  const changed: string[] = [];
  for (const path of Object.keys(namedFiles)) {
    const absolute = resolve(projectDir, path);
    const state = states.known(absolute) ?? (await states.hash(absolute));
    if ((state ?? 'absent') !== namedFiles[path]) changed.push(path);
  }
  return changed;
}

/** What `VerifiedStates` keeps of a file it hashed: the file's identity then, and the state. */
interface Verified {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly state: NamedFileState;
}

/** Options of `VerifiedStates` (tests move its clock). */
export interface VerifiedStatesOptions {
  /** The wall clock, in ns since the epoch (the clock file times are stamped with). */
  readonly now?: () => bigint;
  /** Files remembered at most; past it the memory is cleared. Default 1,024. */
  readonly maxEntries?: number;
}

/**
 * How long after a file's last change its identity is trusted to stand for its content: file
 * times are stamped from a coarse clock (a jiffy on Linux, whole seconds on some file systems),
 * so a file changed within this window of being hashed could be changed again with the same
 * times ("racy" in git's words), and is hashed again until it is older.
 */
export const RACY_WINDOW_NS = 2_000_000_000n;

/**
 * The states of named files, re-hashed only when a file changed (issue 29). A file's state
 * (`namedFileState`) is remembered with its identity when hashed — device, inode, size,
 * modification and status-change times (ns) — and reused while a `stat` shows the same identity.
 * Content cannot change without the status-change time (ctime) moving to the time of the change,
 * and nothing but the kernel sets ctime (`utimes` moves it too), so an edited, replaced,
 * renamed-over or re-pointed file always hashes again. A file changed within `RACY_WINDOW_NS`
 * of its hashing is not remembered (its times may not have moved yet).
 */
export class VerifiedStates {
  readonly #now: () => bigint;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Verified>();

  constructor(options: VerifiedStatesOptions = {}) {
    this.#now = options.now ?? (() => BigInt(Date.now()) * 1_000_000n);
    this.#maxEntries = options.maxEntries ?? 1024;
  }

  /** The remembered state of `path` when a `stat` shows the file hashed before; else undefined. */
  known(path: string): NamedFileState | undefined {
    const entry = this.#entries.get(path);
    if (entry === undefined) return undefined;
    let info: BigIntStats | undefined;
    try {
      info = statSync(path, { bigint: true, throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    if (
      info !== undefined &&
      info.isFile() &&
      info.dev === entry.dev &&
      info.ino === entry.ino &&
      info.size === entry.size &&
      info.mtimeNs === entry.mtimeNs &&
      info.ctimeNs === entry.ctimeNs
    )
      return entry.state;
    this.#entries.delete(path);
    return undefined;
  }

  /** Hashes `path` (`namedFileState`) and remembers its state when its identity allows. */
  async hash(path: string): Promise<NamedFileState | undefined> {
    // The identity is taken before the content is read: a change in between shows next time.
    const hashedAt = this.#now();
    let info: BigIntStats | undefined;
    try {
      info = statSync(path, { bigint: true, throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    const state = await namedFileState(path);
    const settled =
      info?.isFile() === true &&
      info.ctimeNs + RACY_WINDOW_NS < hashedAt &&
      info.mtimeNs + RACY_WINDOW_NS < hashedAt;
    if (info !== undefined && state !== undefined && settled) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
      this.#entries.set(path, {
        dev: info.dev,
        ino: info.ino,
        size: info.size,
        mtimeNs: info.mtimeNs,
        ctimeNs: info.ctimeNs,
        state,
      });
    }
    return state;
  }
}

/** The process's memory of hashed named files (see `VerifiedStates`). */
const verifiedStates = new VerifiedStates();

/**
 * The state of `path` now (`namedFileState`): at once while a `stat` vouches for the state hashed
 * before (`VerifiedStates`), else hashed.
 */
export function namedFileStateNow(
  path: string,
): NamedFileState | undefined | Promise<NamedFileState | undefined> {
  return verifiedStates.known(path) ?? verifiedStates.hash(path);
}

/** The failure a hook whose script changed since it was loaded answers instead of running it. */
export function changedScriptFailure(changed: readonly string[]): string {
  return `did not run: script changed since trusted: ${changed.join(', ')} (review it, then run "hookwire hooks trust")`;
}

/** A hook's named files as checked before each run: absolute path, relative path, trusted state. */
type NamedFileChecks = readonly (readonly [string, string, NamedFileState])[];

/** The checks of each `namedFiles` (settings loading makes one object per hook), by project. */
const namedFileChecks = new WeakMap<
  Readonly<Record<string, NamedFileState>>,
  { readonly projectDir: string; readonly checks: NamedFileChecks }
>();

function checksOf(
  namedFiles: Readonly<Record<string, NamedFileState>>,
  projectDir: string,
): NamedFileChecks {
  const known = namedFileChecks.get(namedFiles);
  if (known?.projectDir === projectDir) return known.checks;
  const checks = Object.keys(namedFiles).map(
    (path) => [resolve(projectDir, path), path, namedFiles[path] ?? 'absent'] as const,
  );
  namedFileChecks.set(namedFiles, { projectDir, checks });
  return checks;
}

/**
 * The trusted state of the named file at absolute path `file` (a project module's, for the
 * `module` kind), from the same per-hook table as the check below; undefined when it is not one
 * of the hook's named files.
 */
export function trustedStateOf(
  namedFiles: Readonly<Record<string, NamedFileState>> | undefined,
  projectDir: string,
  file: string,
): NamedFileState | undefined {
  if (namedFiles === undefined) return undefined;
  for (const [absolute, , trusted] of checksOf(namedFiles, projectDir))
    if (absolute === file) return trusted;
  return undefined;
}

/**
 * The check each kind that runs a named file makes before every run: `undefined` when the hook
 * names no file or none changed since it was trusted (run it), else the execution that refuses
 * to run it (`changedScriptFailure`). Answered at once, without a promise, when a `stat` of each
 * file vouches for its state (`VerifiedStates.known`, the common case: one `statx` per file and
 * no await on the way to the hook); a promise when a file must be hashed.
 */
export function changedScriptExecution(
  namedFiles: Readonly<Record<string, NamedFileState>> | undefined,
  projectDir: string,
  states: VerifiedStates = verifiedStates,
): HookExecution | undefined | Promise<HookExecution | undefined> {
  if (namedFiles === undefined) return undefined;
  let changed: string[] | undefined;
  for (const [absolute, path, trusted] of checksOf(namedFiles, projectDir)) {
    const state = states.known(absolute);
    if (state === undefined) return changedScriptExecutionHashed(namedFiles, projectDir, states);
    if (state !== trusted) (changed ??= []).push(path);
  }
  return changed === undefined ? undefined : refusal(changed);
}

async function changedScriptExecutionHashed(
  namedFiles: Readonly<Record<string, NamedFileState>>,
  projectDir: string,
  states: VerifiedStates,
): Promise<HookExecution | undefined> {
  const changed = await namedFilesChangedSince(namedFiles, projectDir, states);
  return changed.length === 0 ? undefined : refusal(changed);
}

function refusal(changed: readonly string[]): HookExecution {
  return { answer: failureAnswer('error', changedScriptFailure(changed)), durationMs: 0 };
}

/**
 * The file a `module` hook loads, with its state, when it lies inside the project (relative to
 * `projectDir`, or absolute under it or its real path `projectReal`): trust covers the module's
 * content as it covers a command's script. `undefined` for a file outside the project.
 */
export async function moduleFileOf(
  modulePath: string,
  projectDir: string,
  projectReal: string,
): Promise<Readonly<Record<string, NamedFileState>> | undefined> {
  const file = resolve(projectDir, modulePath);
  for (const root of [resolve(projectDir), resolve(projectReal)]) {
    const inside = relative(root, file);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
    const state = await namedFileState(file);
    return state === undefined ? undefined : { [inside.split(sep).join('/')]: state };
  }
  return undefined;
}
