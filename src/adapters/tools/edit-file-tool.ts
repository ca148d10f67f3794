import { readFile } from 'node:fs/promises';
import type { Tool, ToolExecutionContext } from '../../loop/tool.ts';
import { writeFileAtomically } from './atomic-write.ts';
import { ToolError } from './tool-error.ts';
import { confinementRoot, createConfinement, type Confinement } from './confinement.ts';
import { readFileBeneath } from './beneath.ts';
import { displayPath, resolveToolPath, systemErrorCode } from './tool-paths.ts';
import { writeFailure } from './write-failure.ts';

interface EditFileArguments {
  readonly path: string;
  readonly old_string: string;
  readonly new_string: string;
}

/**
 * `edit_file {path, old_string, new_string}`: replaces the one occurrence of `old_string` in a
 * UTF-8 file with `new_string`, literally (no pattern syntax, `$` has no special meaning), and
 * writes the file atomically. No occurrence, or more than one, is an error that says how many were
 * found, so the model can add surrounding context; the file is then left unchanged.
 */
export function editFileTool(options: { readonly confinement?: Confinement } = {}): Tool {
  const confinement = options.confinement ?? createConfinement();
  return {
    declaration: {
      name: 'edit_file',
      description:
        'Replace exactly one occurrence of `old_string` in a file with `new_string`. The match is ' +
        'literal and must be unique: include enough surrounding lines in `old_string` to identify ' +
        'the place. Read the file first so `old_string` matches its text exactly, whitespace included.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', minLength: 1, description: 'The file to edit.' },
          old_string: {
            type: 'string',
            minLength: 1,
            description: 'The exact text to replace; it must occur exactly once in the file.',
          },
          new_string: { type: 'string', description: 'The text to put in its place.' },
        },
        required: ['path', 'old_string', 'new_string'],
        additionalProperties: false,
      },
    },
    async execute(args: unknown, context: ToolExecutionContext): Promise<string> {
      const { path, old_string: oldString, new_string: newString } = args as EditFileArguments;
      const absolutePath = resolveToolPath(context.cwd, path);
      const shownPath = displayPath(context.cwd, absolutePath);
      if (oldString === '') {
        throw new ToolError(
          'edit_file',
          'edit_empty',
          'old_string is empty; give the exact text to replace.',
        );
      }
      if (oldString === newString) {
        throw new ToolError(
          'edit_file',
          'edit_no_change',
          'old_string and new_string are identical, so the edit would change nothing.',
        );
      }
      const realPath = await confinement.resolve('edit_file', context.cwd, path);
      const beneath = await confinementRoot(confinement, context.cwd, realPath);
      let original: string;
      try {
        original =
          beneath === undefined
            ? await readFile(realPath, 'utf8')
            : await readFileBeneath(beneath, realPath);
      } catch (error) {
        const code = systemErrorCode(error);
        if (code === 'ENOENT') {
          throw new ToolError(
            'edit_file',
            'file_not_found',
            `File not found: ${shownPath}; to create a file, use write_file.`,
            { cause: error },
          );
        }
        if (code === 'EISDIR') {
          throw new ToolError(
            'edit_file',
            'is_directory',
            `${shownPath} is a directory, not a file.`,
            {
              cause: error,
            },
          );
        }
        throw new ToolError(
          'edit_file',
          'read_failed',
          `Could not read ${shownPath}: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      const first = original.indexOf(oldString);
      if (first === -1) {
        throw new ToolError(
          'edit_file',
          'edit_not_found',
          `old_string was not found in ${shownPath}; read the file and copy the text exactly, whitespace included.`,
        );
      }
      const occurrences = countOccurrences(original, oldString, first);
      if (occurrences > 1) {
        throw new ToolError(
          'edit_file',
          'edit_ambiguous',
          `old_string occurs ${occurrences} times in ${shownPath}; include more surrounding context so it matches exactly once.`,
        );
      }
      // Slicing, not String.replace: a replacement string's `$&` or `$1` must stay literal.
      const edited =
        original.slice(0, first) + newString + original.slice(first + oldString.length);
      try {
        await writeFileAtomically(realPath, edited, { beneath });
      } catch (error) {
        throw writeFailure('edit_file', error, shownPath);
      }
      return `Edited ${shownPath}: replaced 1 occurrence (${Buffer.byteLength(edited, 'utf8')} bytes now)`;
    },
  };
}

/**
 * Occurrences of `needle` in `haystack`, the first known to be at `first`. Overlapping matches
 * count (`aa` occurs twice in `aaa`): either start would be a different edit, so both make the
 * match ambiguous.
 */
function countOccurrences(haystack: string, needle: string, first: number): number {
  let count = 0;
  for (let index = first; index !== -1; index = haystack.indexOf(needle, index + 1)) count++;
  return count;
}
