import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool, ToolExecutionContext } from '../../loop/tool.ts';
import { isBinaryContent } from './binary-content.ts';
import { ToolError } from './tool-error.ts';
import { createConfinement, type Confinement } from './confinement.ts';
import { displayPath, resolveToolPath, systemErrorCode } from './tool-paths.ts';

/** Options of the `grep` tool. */
export interface GrepToolOptions {
  /** Matching lines listed at most; the search stops there with a note. Default 1000. */
  readonly maxMatches?: number;
  /** Characters of a matching line shown at most; longer lines are cut with `…`. Default 500. */
  readonly maxLineLength?: number;
  /** Files larger than this are skipped (and counted in a note). Default 16 MiB. */
  readonly maxFileBytes?: number;
  /** Where the tool may search; default the project directory only (see `createConfinement`). */
  readonly confinement?: Confinement;
  /**
   * Files the permission rules withhold from reading (`withheldFiles`): given a file's absolute
   * real path and the call's cwd, `true` leaves it unread, as if it were not there. Default none.
   */
  readonly withheld?: (path: string, cwd: string) => boolean;
}

interface GrepArguments {
  readonly pattern: string;
  readonly path?: string;
}

const DEFAULT_MAX_MATCHES = 1000;
const DEFAULT_MAX_LINE_LENGTH = 500;
const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;
// Files read at once: enough to overlap I/O, few enough to bound memory and open descriptors.
const READ_CONCURRENCY = 16;
// Dependency trees and version-control internals: never what the model is looking for.
const IGNORED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git']);

interface FileMatches {
  readonly lines: string[];
  readonly skipped?: 'binary' | 'too-large';
}

/**
 * `grep {pattern, path?}`: searches the lines of the text files under `path` (a file or a
 * directory, relative to the run's cwd; default the cwd) for a JavaScript regular expression.
 * Output is one `file:line:text` per matching line, files sorted by path (code unit order, as
 * `glob` sorts), lines in file order. `node_modules`, `.git`, symbolic links and binary files are
 * skipped. The search stops after `maxMatches` lines with a note. An invalid expression or a
 * missing path is an error.
 */
export function grepTool(options: GrepToolOptions = {}): Tool {
  const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES;
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const confinement = options.confinement ?? createConfinement();
  return {
    declaration: {
      name: 'grep',
      description:
        'Search file contents for a JavaScript regular expression, line by line. Returns ' +
        '`file:line:text` for each matching line, sorted by file then line. `path` is a file or ' +
        'directory relative to the project directory (default: the whole project); node_modules, ' +
        '.git and binary files are skipped. The match is case-sensitive: use `(?i:...)` or ' +
        `character classes for case-insensitive parts. At most ${maxMatches} lines are returned.`,
      parameters: {
        type: 'object',
        properties: {
          pattern: {
            type: 'string',
            minLength: 1,
            description: 'A JavaScript regular expression, without slashes or flags.',
          },
          path: {
            type: 'string',
            description: 'The file or directory to search; defaults to the project directory.',
          },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
    async execute(args: unknown, context: ToolExecutionContext): Promise<string> {
      const { pattern, path = '.' } = args as GrepArguments;
      let expression: RegExp;
      try {
        expression = new RegExp(pattern);
      } catch (error) {
        throw new ToolError(
          'grep',
          'invalid_pattern',
          `Invalid regular expression ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      const root = resolveToolPath(context.cwd, path);
      // Symbolic links below the root are skipped by the walk; the root itself is confined.
      const realRoot = await confinement.resolve('grep', context.cwd, path);
      const listed = await filesUnder(realRoot, displayPath(context.cwd, root), context.signal);
      const withheld = options.withheld;
      const files =
        withheld === undefined
          ? listed
          : listed.filter((file) => !withheld(file.absolute, context.cwd));
      files.sort((left, right) =>
        left.shown < right.shown ? -1 : left.shown > right.shown ? 1 : 0,
      );

      // One line beyond the cap is collected only to learn whether the listing is cut.
      const output: string[] = [];
      let skippedBinary = 0;
      let skippedLarge = 0;
      const matchOptions = { expression, maxLineLength, maxFileBytes, remaining: maxMatches + 1 };
      for (
        let start = 0;
        start < files.length && output.length <= maxMatches;
        start += READ_CONCURRENCY
      ) {
        context.signal.throwIfAborted();
        const batch = files.slice(start, start + READ_CONCURRENCY);
        const results = await Promise.all(batch.map((file) => matchFile(file, matchOptions)));
        for (const result of results) {
          if (result.skipped === 'binary') skippedBinary++;
          else if (result.skipped === 'too-large') skippedLarge++;
          for (const line of result.lines) {
            if (output.length > maxMatches) break;
            output.push(line);
          }
        }
        matchOptions.remaining = maxMatches + 1 - output.length;
      }
      const limitReached = output.length > maxMatches;
      if (limitReached) output.length = maxMatches;

      const notes: string[] = [];
      if (limitReached) {
        notes.push(
          `[truncated: stopped after ${maxMatches} matching lines; narrow the pattern or path]`,
        );
      }
      if (skippedLarge > 0) {
        notes.push(`[skipped ${skippedLarge} file(s) larger than ${maxFileBytes} bytes]`);
      }
      if (output.length === 0) {
        const where = displayPath(context.cwd, root);
        const binaryNote =
          skippedBinary > 0 ? ` (${skippedBinary} binary file(s) not searched)` : '';
        return [
          `No matches for ${JSON.stringify(pattern)} in ${where}${binaryNote}`,
          ...notes,
        ].join('\n');
      }
      return [...output, ...notes].join('\n');
    },
  };
}

interface SearchFile {
  readonly absolute: string;
  readonly shown: string;
}

/** The regular files to search: `root` itself when it is a file, else every file beneath it. */
async function filesUnder(
  root: string,
  shownRoot: string,
  signal: AbortSignal,
): Promise<SearchFile[]> {
  let info;
  try {
    info = await stat(root);
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') {
      throw new ToolError('grep', 'path_not_found', `Path not found: ${shownRoot}`, {
        cause: error,
      });
    }
    throw new ToolError(
      'grep',
      'read_failed',
      `Could not search ${shownRoot}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (info.isFile()) return [{ absolute: root, shown: shownRoot }];
  const files: SearchFile[] = [];
  await walk(root, shownRoot === '.' ? '' : `${shownRoot}/`, files, signal);
  return files;
}

async function walk(
  directory: string,
  shownPrefix: string,
  files: SearchFile[],
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    // An unreadable subdirectory is not worth failing the whole search over.
    const code = systemErrorCode(error);
    if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT') return;
    throw error;
  }
  const subdirectories: Promise<void>[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (IGNORED_DIRECTORIES.has(entry.name)) continue;
      subdirectories.push(
        walk(join(directory, entry.name), `${shownPrefix}${entry.name}/`, files, signal),
      );
    } else if (entry.isFile()) {
      files.push({ absolute: join(directory, entry.name), shown: `${shownPrefix}${entry.name}` });
    }
  }
  await Promise.all(subdirectories);
}

async function matchFile(
  file: SearchFile,
  options: { expression: RegExp; maxLineLength: number; maxFileBytes: number; remaining: number },
): Promise<FileMatches> {
  let content: Buffer;
  try {
    const handle = await open(file.absolute, 'r');
    try {
      const info = await handle.stat();
      if (info.size > options.maxFileBytes) return { lines: [], skipped: 'too-large' };
      content = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    // A file that vanished or cannot be read between listing and reading is skipped, not fatal.
    const code = systemErrorCode(error);
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EPERM') return { lines: [] };
    throw error;
  }
  if (isBinaryContent(content)) return { lines: [], skipped: 'binary' };
  const text = content.toString('utf8');
  const lines: string[] = [];
  let lineStart = 0;
  let lineNumber = 1;
  // Scanning for newlines instead of split() avoids an array of every line of a large file.
  // A final newline ends the last line; it does not start an empty one.
  while (lineStart < text.length && lines.length < options.remaining) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    let line = text.slice(lineStart, lineEnd);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (options.expression.test(line)) {
      const shown =
        line.length > options.maxLineLength ? `${line.slice(0, options.maxLineLength)}…` : line;
      lines.push(`${file.shown}:${lineNumber}:${shown}`);
    }
    lineStart = lineEnd + 1;
    lineNumber++;
  }
  return { lines };
}
