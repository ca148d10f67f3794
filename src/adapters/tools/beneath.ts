/**
 * Opening a directory beneath a root without following a symbolic link on the way, so a file
 * tool writes where the confinement check looked even when another process swaps a directory of
 * the path for a link to elsewhere in between (decision 0023).
 *
 * Node has no `openat`. On Linux, `/proc/self/fd/N/NAME` names `NAME` inside the very directory
 * descriptor `N` refers to (the magic link is that open directory, not a path looked up again),
 * so opening each component that way with `O_NOFOLLOW | O_DIRECTORY` walks from the root's
 * descriptor to the target's directory one descriptor at a time: a component that is a link when
 * it is opened fails with `ELOOP`, and a directory once opened stays the one written into, wherever
 * it is renamed to afterwards. Creating the temporary file (`O_CREAT | O_EXCL | O_NOFOLLOW`) and
 * the rename over the target go through the last descriptor too. Without `/proc` (not Linux) the
 * tools fall back to the path-based write, which checks and writes by path and so keeps the race.
 */
import { constants, existsSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { systemErrorCode } from './tool-paths.ts';

/** Whether descriptor-relative paths (`/proc/self/fd/N/NAME`) work on this system. */
export const DESCRIPTOR_PATHS: boolean =
  process.platform === 'linux' && existsSync('/proc/self/fd');

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** An open directory beneath a root; entries of it are named through its descriptor. */
export interface DirectoryBeneath {
  /** The path naming `name` inside this very directory (through its descriptor). */
  entry(name: string): string;
  close(): Promise<void>;
}

/**
 * Opens `directory` (absolute, inside `root`) by walking from `root` one component at a time,
 * each opened through the previous one's descriptor without following a link; with `create`,
 * missing directories are made on the way. Rejects with `ELOOP` (or `ENOTDIR`) when a component
 * is a link or not a directory, and with `ENOENT` when one is missing and `create` is false.
 * Returns `undefined` where descriptor paths do not work (the caller writes by path).
 */
export async function openDirectoryBeneath(
  root: string,
  directory: string,
  create: boolean,
): Promise<DirectoryBeneath | undefined> {
  if (!DESCRIPTOR_PATHS) return undefined;
  const rest = relative(root, directory);
  if (rest.startsWith('..') || isAbsolute(rest))
    throw new Error(`${directory} is not inside ${root}`);
  let handle: FileHandle = await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const component of rest === '' ? [] : rest.split(sep)) {
      const path = `/proc/self/fd/${String(handle.fd)}/${component}`;
      let next: FileHandle;
      try {
        next = await open(path, DIRECTORY_FLAGS);
      } catch (error) {
        if (!create || systemErrorCode(error) !== 'ENOENT') throw error;
        await mkdir(path).catch((made: unknown) => {
          if (systemErrorCode(made) !== 'EEXIST') throw made;
        });
        next = await open(path, DIRECTORY_FLAGS);
      }
      await handle.close();
      handle = next;
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  const opened = handle;
  return {
    entry: (name) => `/proc/self/fd/${String(opened.fd)}/${name}`,
    close: () => opened.close(),
  };
}

/**
 * Reads the file `path` (absolute, inside `root`) as UTF-8 through descriptors opened beneath
 * `root` (see `openDirectoryBeneath`), refusing a link as the file itself (`ELOOP`); by path
 * where descriptor paths do not work.
 */
export async function readFileBeneath(root: string, path: string): Promise<string> {
  const cut = path.lastIndexOf(sep);
  const directory = await openDirectoryBeneath(root, path.slice(0, cut) || sep, false);
  if (directory === undefined) {
    const handle = await open(path, constants.O_RDONLY);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }
  try {
    const handle = await open(
      directory.entry(path.slice(cut + 1)),
      constants.O_RDONLY | constants.O_NOFOLLOW,
    );
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } finally {
    await directory.close();
  }
}
