/**
 * What a shell command line would run, read with a real bash parser (`shell-parser.ts`): every
 * simple command in it — in lists, pipelines, subshells, groups, `if`/`while`/`until`/`for`/`case`
 * bodies, function bodies, `$(…)`, backquotes, `<(…)`, here-documents and `${…}` — and,
 * recursively, the commands other commands run: the string of `sh|bash|zsh|dash|ksh -c`, `eval`
 * and `trap`, and the command of the wrappers `command`, `builtin`, `exec`, `env`, `nice`,
 * `nohup`, `setsid`, `coproc`, `stdbuf`, `timeout`, `time`, `sudo`, `doas`, `xargs` and `find
 * -exec/-execdir/-ok/-okdir` (and `find -delete`, read as an `rm` of the paths find starts from).
 *
 * Each command's name is normalised as the shell resolves it: quotes and backslashes removed,
 * a path reduced to its last segment (`\rm`, `'rm'`, `r''m`, `/bin/rm` are all `rm`). A command
 * whose name (or the text a shell or `eval` is given) holds an expansion, a substitution, a glob
 * or a brace expansion cannot be known before it runs: it is listed in `unknown`, as is a line
 * that does not parse and a shell that reads its commands from standard input.
 *
 * Not seen (see the README's security model): aliases, functions defined earlier (their bodies
 * are seen, a call is only its name), scripts and programs a command runs (`bash x.sh`,
 * `python -c`, `make`), and what the environment makes a shell do (`BASH_ENV`).
 */
import type { Node, Parser } from 'web-tree-sitter';
import { collapseSpaces } from './command-glob.ts';
import { parseShell } from './shell-parser.ts';

/** One simple command the line would run. */
export interface SimpleCommand {
  /** The words, the name normalised; a word holding an expansion is kept as written. */
  readonly words: readonly string[];
  /** What rules match: the words joined by one space, then the redirections as written. */
  readonly text: string;
  /** The same with the arguments as written (quotes kept): a rule may be written either way. */
  readonly source: string;
  /** It redirects input or output (`>`, `<`, `>>`, here-documents). */
  readonly redirects: boolean;
}

/** The simple commands of a command line, and what in it cannot be known statically. */
export interface ShellAnalysis {
  readonly commands: readonly SimpleCommand[];
  /** Why some command cannot be known before the line runs; empty when all are known. */
  readonly unknown: readonly string[];
}

/** A word: its static value (`undefined` when only the run knows it) and its text as written. */
interface Word {
  readonly value: string | undefined;
  readonly source: string;
  /** An unquoted part holds a glob or brace expansion the shell would expand. */
  readonly expands: boolean;
}

// Deeper nesting of `sh -c`, `eval` and wrappers than this is not followed: unknown.
const MAX_DEPTH = 12;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh']);
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
// Nodes that hold no command: the walk does not ask for their children (each ask crosses into
// the parser's memory, the walk's main cost on a long line).
const LEAVES = new Set([
  'word',
  'raw_string',
  'number',
  'string_content',
  'variable_name',
  'special_variable_name',
  'file_descriptor',
  'heredoc_start',
  'heredoc_end',
  'heredoc_content',
  'comment',
  'ansi_c_string',
  'test_operator',
  'regex',
  'extglob_pattern',
]);

/** What `command` would run, read with a loaded parser (`shellParser`). */
export function analyzeWith(parser: Parser, command: string): ShellAnalysis {
  const analysis = { commands: [] as SimpleCommand[], unknown: [] as string[] };
  analyzeText(parser, command, 0, analysis);
  return analysis;
}

interface Collector {
  readonly commands: SimpleCommand[];
  readonly unknown: string[];
}

function analyzeText(parser: Parser, text: string, depth: number, out: Collector): void {
  if (depth > MAX_DEPTH) {
    out.unknown.push(`commands nested more than ${MAX_DEPTH} deep are not followed`);
    return;
  }
  const tree = parseShell(parser, text);
  try {
    const root = tree.rootNode;
    if (root.hasError) {
      out.unknown.push(`${quoteShort(text)} does not parse as a shell command`);
      return;
    }
    walk(parser, root, text, depth, out);
  } finally {
    tree.delete();
  }
  // The parser keeps `\<newline>` inside a word (`r\<newline>m` is two words to it, `rm` to
  // bash). Whether a given one is a line continuation depends on quoting the parser does not
  // settle, so the line is read a second time with every one removed, and both readings count.
  if (/\\\r?\n/.test(text)) analyzeText(parser, text.replace(/\\\r?\n/g, ''), depth + 1, out);
}

function quoteShort(text: string): string {
  const flat = collapseSpaces(text);
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 77)}...` : flat);
}

/** Visits every node; each command node is read, and its words walked for substitutions. */
function walk(parser: Parser, node: Node, text: string, depth: number, out: Collector): void {
  const stack: Node[] = [node];
  // The redirections of a `redirected_statement` around a command, by the command's node id
  // (asking a node for its parent costs a descent from the root).
  const outerRedirects = new Map<number, Node[]>();
  while (stack.length > 0) {
    const current = stack.pop() as Node;
    const type = current.type;
    if (type === 'command')
      readCommand(parser, current, text, outerRedirects.get(current.id) ?? [], depth, out);
    else if (type === 'declaration_command' || type === 'unset_command')
      readDeclaration(current, out);
    else if (LEAVES.has(type)) continue;
    const children = current.namedChildren;
    if (type === 'redirected_statement') {
      const body = current.childForFieldName('body');
      if (body?.type === 'command')
        outerRedirects.set(
          body.id,
          children.filter((child) => REDIRECTS.has(child.type)),
        );
    }
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Node);
  }
}

/** `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: listed as commands by keyword. */
function readDeclaration(node: Node, out: Collector): void {
  const keyword = node.child(0)?.text ?? node.type;
  const words = [keyword, ...node.namedChildren.map((child) => child.text)];
  const text = words.join(' ');
  out.commands.push({ words, text, source: text, redirects: false });
}

/**
 * Reads a command node's words and redirections. A cursor walks its children, and plain words
 * are cut from the text directly: a command of thousands of words would otherwise make as many
 * node objects.
 */
function readCommand(
  parser: Parser,
  node: Node,
  text: string,
  outer: readonly Node[],
  depth: number,
  out: Collector,
): void {
  const words: Word[] = [];
  const redirects: string[] = [];
  let named = false;
  const cursor = node.walk();
  try {
    if (cursor.gotoFirstChild())
      do {
        const field = cursor.currentFieldName;
        const type = cursor.nodeType;
        if (field === 'name' || field === 'argument') {
          named ||= field === 'name';
          const source = text.slice(cursor.startIndex, cursor.endIndex);
          if (type === 'word' || type === 'number') words.push(plainWord(source));
          else if (type === 'raw_string')
            words.push({ value: source.slice(1, -1), source, expands: false });
          else words.push(readWord(cursor.currentNode));
        } else if (REDIRECTS.has(type))
          redirects.push(collapseSpaces(text.slice(cursor.startIndex, cursor.endIndex)));
      } while (cursor.gotoNextSibling());
  } finally {
    cursor.delete();
  }
  if (!named) return; // assignments only
  for (const redirect of outer) redirects.push(collapseSpaces(redirect.text));
  run(parser, words, redirects, depth, out);
}

/** An unquoted word: backslashes removed; `expands` when the shell would expand a glob or braces. */
function plainWord(source: string): Word {
  const parts = { expands: false };
  return { value: plainValue(source, parts), source, expands: parts.expands };
}

/** `{a,b}` or `{1..3}` in an unquoted word (found without a backtracking expression). */
function bracesExpand(text: string): boolean {
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open === -1 || close < open) return false;
  const inner = text.slice(open + 1, close);
  return inner.includes(',') || inner.includes('..');
}

function plainValue(text: string, parts: { expands: boolean }): string {
  if (/[*?[]/.test(text) || bracesExpand(text)) parts.expands = true;
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

/** Records the simple command `words` and follows what it runs. */
function run(
  parser: Parser,
  words: readonly Word[],
  redirects: readonly string[],
  depth: number,
  out: Collector,
): void {
  const first = words[0];
  if (first === undefined) return;
  const name = commandName(first);
  if (name === undefined) {
    out.unknown.push(`the command name ${quoteShort(first.source)} is known only when it runs`);
    return;
  }
  const rest = words.slice(1);
  const tail = redirects.length === 0 ? '' : ` ${redirects.join(' ')}`;
  const values = [name, ...rest.map((word) => word.value ?? collapseSpaces(word.source))];
  out.commands.push({
    words: values,
    text: values.join(' ') + tail,
    source: [name, ...rest.map((word) => collapseSpaces(word.source))].join(' ') + tail,
    redirects: redirects.length > 0,
  });
  followRunner(parser, name, rest, depth + 1, out);
}

/** The name a shell would look up for `word`: unquoted, a path reduced to its last segment. */
function commandName(word: Word): string | undefined {
  if (word.value === undefined || word.expands) return undefined;
  const segments = word.value.split('/');
  const last = segments[segments.length - 1] as string;
  return last === '' ? word.value : last;
}

/** The command string after `sh`'s options, or why none can be read. */
function followShell(parser: Parser, words: readonly Word[], depth: number, out: Collector): void {
  let index = 0;
  let script = false;
  let standardInput = false;
  for (; index < words.length; index++) {
    const word = words[index] as Word;
    if (word.value === undefined) {
      out.unknown.push(`a shell is given the option ${quoteShort(word.source)}`);
      return;
    }
    const option = word.value;
    if (option === '--' || option === '-') {
      index++;
      break;
    }
    if (!/^[-+]./.test(option)) break;
    if (option.startsWith('--')) {
      if (option === '--rcfile' || option === '--init-file') index++;
      continue;
    }
    const letters = option.slice(1);
    if (letters.includes('c')) script = true;
    if (letters.includes('s')) standardInput = true;
    if (letters.includes('o') || letters.includes('O')) index++;
  }
  if (script) {
    const command = words[index];
    if (command === undefined) return;
    if (command.value === undefined) {
      out.unknown.push(`a shell runs ${quoteShort(command.source)}, known only when it runs`);
      return;
    }
    analyzeText(parser, command.value, depth, out);
    return;
  }
  if (standardInput || index >= words.length)
    out.unknown.push('a shell reads commands from its standard input');
}

/** Skips options: `withValue` take the next word (or `--name=value`); returns the first operand. */
function skipOptions(
  words: readonly Word[],
  start: number,
  withValue: ReadonlySet<string>,
): number | undefined {
  let index = start;
  while (index < words.length) {
    const word = words[index] as Word;
    if (word.value === undefined) return undefined;
    const option = word.value;
    if (option === '--') return index + 1;
    if (!option.startsWith('-') || option === '-') return index;
    if (withValue.has(option)) index += 2;
    else index++;
  }
  return index;
}

const ENV_VALUES = new Set(['-u', '--unset', '-C', '--chdir', '-P']);
const NICE_VALUES = new Set(['-n', '--adjustment']);
const TIMEOUT_VALUES = new Set(['-s', '--signal', '-k', '--kill-after']);
const TIME_VALUES = new Set(['-f', '--format', '-o', '--output']);
const SUDO_VALUES = new Set([
  '-u',
  '--user',
  '-g',
  '--group',
  '-h',
  '--host',
  '-C',
  '--close-from',
  '-D',
  '--chdir',
  '-p',
  '--prompt',
  '-r',
  '--role',
  '-t',
  '--type',
  '-U',
  '--other-user',
  '-T',
  '--command-timeout',
  '-R',
  '--chroot',
]);
const XARGS_VALUES = new Set([
  '-a',
  '--arg-file',
  '-d',
  '--delimiter',
  '-E',
  '-I',
  '-L',
  '-n',
  '--max-args',
  '-P',
  '--max-procs',
  '-s',
  '--max-chars',
  '--process-slot-var',
]);
const STDBUF_VALUES = new Set(['-i', '-o', '-e']);
const EXEC_VALUES = new Set(['-a']);

/** Follows what `name` runs with the words after it, for the shells and wrappers listed above. */
function followRunner(
  parser: Parser,
  name: string,
  words: readonly Word[],
  depth: number,
  out: Collector,
): void {
  const inner = (start: number | undefined, fallback?: Word): void => {
    if (start === undefined) {
      out.unknown.push(`the command ${name} runs is known only when it runs`);
      return;
    }
    const command = words.slice(start);
    if (command.length === 0) {
      if (fallback !== undefined) run(parser, [fallback], [], depth, out);
      return;
    }
    run(parser, command, [], depth, out);
  };
  if (SHELLS.has(name)) {
    followShell(parser, words, depth, out);
    return;
  }
  switch (name) {
    case 'eval': {
      if (words.some((word) => word.value === undefined)) {
        out.unknown.push('eval runs text known only when it runs');
        return;
      }
      analyzeText(parser, words.map((word) => word.value).join(' '), depth, out);
      return;
    }
    case 'trap': {
      const action = words[0];
      if (action === undefined || action.value?.startsWith('-') === true) return;
      if (action.value === undefined) {
        out.unknown.push('trap runs text known only when it runs');
        return;
      }
      analyzeText(parser, action.value, depth, out);
      return;
    }
    case 'command': {
      const start = skipOptions(words, 0, new Set());
      const looksUp = words
        .slice(0, start ?? 0)
        .some((word) => /^-[a-zA-Z]*[vV]/.test(word.value ?? ''));
      if (!looksUp) inner(start);
      return;
    }
    case 'builtin':
    case 'coproc':
    case 'nohup':
    case 'setsid': {
      inner(skipOptions(words, 0, new Set()));
      return;
    }
    case 'exec': {
      inner(skipOptions(words, 0, EXEC_VALUES));
      return;
    }
    case 'nice': {
      inner(skipOptions(words, 0, NICE_VALUES));
      return;
    }
    case 'stdbuf': {
      inner(skipOptions(words, 0, STDBUF_VALUES));
      return;
    }
    case 'time': {
      inner(skipOptions(words, 0, TIME_VALUES));
      return;
    }
    case 'sudo':
    case 'doas': {
      inner(skipOptions(words, 0, SUDO_VALUES));
      return;
    }
    case 'timeout': {
      const duration = skipOptions(words, 0, TIMEOUT_VALUES);
      inner(duration === undefined ? undefined : duration + 1);
      return;
    }
    case 'env': {
      followEnv(parser, words, depth, out, inner);
      return;
    }
    case 'xargs': {
      inner(skipOptions(words, 0, XARGS_VALUES), {
        value: 'echo',
        source: 'echo',
        expands: false,
      });
      return;
    }
    case 'find': {
      followFind(parser, words, depth, out);
      return;
    }
    default:
      return;
  }
}

function followEnv(
  parser: Parser,
  words: readonly Word[],
  depth: number,
  out: Collector,
  inner: (start: number | undefined) => void,
): void {
  let index = 0;
  while (index < words.length) {
    const word = words[index] as Word;
    if (word.value === undefined) {
      inner(undefined);
      return;
    }
    const option = word.value;
    if (option === '-S' || option === '--split-string' || option.startsWith('--split-string=')) {
      const split = option.includes('=') ? option.slice(option.indexOf('=') + 1) : undefined;
      const next = split === undefined ? words[index + 1] : undefined;
      const text = split ?? next?.value;
      if (text === undefined) {
        inner(undefined);
        return;
      }
      const after = words.slice(index + (split === undefined ? 2 : 1));
      if (after.some((rest) => rest.value === undefined)) {
        inner(undefined);
        return;
      }
      analyzeText(parser, [text, ...after.map((rest) => rest.value)].join(' '), depth, out);
      return;
    }
    if (option === '--') {
      index++;
      break;
    }
    if (option.startsWith('-') && option !== '-') {
      index += ENV_VALUES.has(option) ? 2 : 1;
      continue;
    }
    if (option === '-' || /^[^=/]+=/.test(option)) {
      index++;
      continue;
    }
    break;
  }
  while (index < words.length && /^[^=/]+=/.test(words[index]?.value ?? '')) index++;
  inner(index);
}

const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function followFind(parser: Parser, words: readonly Word[], depth: number, out: Collector): void {
  const start = words.findIndex(
    (word) => word.value === undefined || /^[-(!]/.test(word.value) || word.value === ')',
  );
  const roots = words.slice(0, start === -1 ? words.length : start);
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as Word;
    if (word.value === '-delete') {
      run(parser, [{ value: 'rm', source: 'rm', expands: false }, ...roots], [], depth, out);
      continue;
    }
    if (word.value === undefined || !FIND_RUNS.has(word.value)) continue;
    const end = words.findIndex(
      (candidate, at) => at > index && (candidate.value === ';' || candidate.value === '+'),
    );
    const command = words.slice(index + 1, end === -1 ? words.length : end);
    if (command.length > 0) run(parser, command, [], depth, out);
    index = end === -1 ? words.length : end;
  }
}

/** A word's static value, or `undefined` when it holds an expansion or substitution. */
function readWord(node: Node): Word {
  const source = node.text;
  const parts = { expands: false };
  const value = wordValue(node, parts);
  return { value, source, expands: parts.expands };
}

function wordValue(node: Node, parts: { expands: boolean }): string | undefined {
  switch (node.type) {
    case 'command_name': {
      const child = node.namedChild(0);
      return child === null ? undefined : wordValue(child, parts);
    }
    case 'word':
    case 'number':
      return plainValue(node.text, parts);
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      if (node.namedChildren.some((child) => child.type !== 'string_content')) return undefined;
      return node.text
        .slice(1, -1)
        .replace(/\\\n/g, '')
        .replace(/\\([$`"\\])/g, '$1');
    }
    case 'translated_string': {
      const inner = node.namedChild(0);
      return inner === null ? '' : wordValue(inner, parts);
    }
    case 'ansi_c_string':
      return ansiC(node.text.slice(2, -1));
    case 'concatenation': {
      let value = '';
      for (const child of node.children) {
        const piece = wordValue(child, parts);
        if (piece === undefined) return undefined;
        value += piece;
      }
      return value;
    }
    default:
      return undefined;
  }
}

const ANSI_C: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The value of `$'…'`; `undefined` for an escape this does not decode (`\c`, `\u`). */
function ansiC(body: string): string | undefined {
  const undecoded = { found: false };
  const value = body.replace(
    /\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/gs,
    (whole: string, escape: string) => {
      if (escape.startsWith('x') && escape.length > 1)
        return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
      if (/^[0-7]+$/.test(escape)) return String.fromCharCode(Number.parseInt(escape, 8));
      const known = ANSI_C[escape];
      if (known === undefined) undecoded.found = true;
      return known ?? whole;
    },
  );
  return undecoded.found ? undefined : value;
}
