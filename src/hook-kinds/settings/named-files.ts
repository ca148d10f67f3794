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
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';

/** The variables hooks get that hold the project directory (see `hookEnvironment`). */
const PROJECT_VARIABLES = new Set([
  'HOOKWIRE_PROJECT_DIR',
  'CLAUDE_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
]);

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
    return `sha256:${createHash('sha256')
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
 * directory) is not run in the trusted one's place.
 */
export async function namedFilesChangedSince(
  namedFiles: Readonly<Record<string, NamedFileState>>,
  projectDir: string,
): Promise<string[]> {
  const paths = Object.keys(namedFiles);
  const states = await Promise.all(paths.map((path) => namedFileState(resolve(projectDir, path))));
  return paths.filter((path, index) => (states[index] ?? 'absent') !== namedFiles[path]);
}

/** The failure a hook whose script changed since it was loaded answers instead of running it. */
export function changedScriptFailure(changed: readonly string[]): string {
  return `did not run: script changed since trusted: ${changed.join(', ')} (review it, then run "hookwire hooks trust")`;
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
