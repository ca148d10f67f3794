import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ToolError } from './tool-error.ts';
import { displayPath, systemErrorCode } from './tool-paths.ts';

/** Options of the file tools' confinement. */
export interface ConfinementOptions {
  /**
   * Directories the file tools may use besides the project directory (the run's cwd), like
   * Claude Code's `--add-dir`. Relative ones resolve against the project directory. Default none.
   */
  readonly additionalDirectories?: readonly string[];
}

const MAX_LINKS = 40;

/**
 * The real path `path` names, symbolic links followed, also when it does not exist yet: the
 * nearest existing ancestor's real path plus the rest, and a dangling link's target resolved the
 * same way (so writing through a link to a file that does not exist yet is judged by where it
 * would land).
 */
export async function realPathOf(path: string, links = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT' && systemErrorCode(error) !== 'ENOTDIR') throw error;
  }
  if (links > MAX_LINKS) return path;
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) {
      const target = resolve(dirname(path), await readlink(path));
      return await realPathOf(target, links + 1);
    }
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT' && systemErrorCode(error) !== 'ENOTDIR') throw error;
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realPathOf(parent, links), basename(path));
}

function inside(path: string, directory: string): boolean {
  const rest = relative(directory, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

/**
 * The allowed directory of `confinement` for `cwd` that holds `realPath` (the deepest one, when
 * an added directory lies inside the project), or `undefined`: the root a write walks down from
 * without following links (`writeFileAtomically`'s `beneath`).
 */
export async function confinementRoot(
  confinement: Confinement,
  cwd: string,
  realPath: string,
): Promise<string | undefined> {
  let found: string | undefined;
  for (const root of await confinement.roots(cwd))
    if (inside(realPath, root) && (found === undefined || root.length > found.length)) found = root;
  return found;
}

/** The file tools' view of where they may go. */
export interface Confinement {
  /**
   * The real path a tool call's `path` names (relative to `cwd`, symbolic links followed), or a
   * `ToolError` (`path_outside_project`) the model sees as the tool's result when it lies outside
   * the project directory and the added directories.
   */
  resolve(toolName: string, cwd: string, path: string): Promise<string>;
  /** The real paths of the allowed directories for `cwd`: the project first, then the added ones. */
  roots(cwd: string): Promise<readonly string[]>;
}

/**
 * Confines the built-in file tools to the project directory (each call's cwd) and
 * `additionalDirectories`, by real path: `../`, absolute paths and symbolic links that lead
 * outside are refused, whatever the spelling.
 */
export function createConfinement(options: ConfinementOptions = {}): Confinement {
  const cache = new Map<string, Promise<readonly string[]>>();
  const roots = (cwd: string): Promise<readonly string[]> => {
    let found = cache.get(cwd);
    if (found === undefined) {
      found = Promise.all(
        [cwd, ...(options.additionalDirectories ?? [])].map((directory) =>
          realPathOf(resolve(cwd, directory)),
        ),
      );
      cache.set(cwd, found);
    }
    return found;
  };
  return {
    roots,
    async resolve(toolName, cwd, path) {
      const absolute = resolve(cwd, path);
      const [real, allowed] = await Promise.all([realPathOf(absolute), roots(cwd)]);
      if (allowed.some((root) => inside(real, root))) return real;
      const via = real === absolute ? '' : ` (it resolves to ${real})`;
      const added = allowed.slice(1);
      throw new ToolError(
        toolName,
        'path_outside_project',
        `${displayPath(cwd, absolute)} is outside the project directory${via}: ${toolName} only works inside ${allowed[0] ?? cwd}${added.length > 0 ? ` and ${added.join(', ')}` : ''}. Use a path inside the project.`,
      );
    },
  };
}
