import { randomHex } from '../../content/random-id.ts';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openDirectoryBeneath } from './beneath.ts';
import { systemErrorCode } from './tool-paths.ts';

/** Options of `writeFileAtomically`. */
export interface AtomicWriteOptions {
  /**
   * A directory that contains `absolutePath` (the confinement root it was checked against):
   * every directory from it to the file is opened without following a symbolic link, and the
   * temporary file and the rename go through the last one's descriptor, so the write lands where
   * the check looked even if a directory on the way is swapped for a link meanwhile (a link met
   * on the way fails the write with `ELOOP`). Without it the write goes by path.
   */
  readonly beneath?: string | undefined;
}

/**
 * Writes `content` to `absolutePath` atomically: the bytes go to a temporary file beside the
 * target, which is then renamed over it, so a reader sees the old file or the new one and never a
 * partial write. Parent directories are created; an existing file keeps its permission bits. The
 * temporary file is removed when the write fails.
 */
export async function writeFileAtomically(
  absolutePath: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const name = basename(absolutePath);
  const temporaryName = `.${name}.${process.pid}.${randomHex(6)}.tmp`;
  if (options.beneath !== undefined) {
    const directory = await openDirectoryBeneath(options.beneath, dirname(absolutePath), true);
    if (directory !== undefined) {
      try {
        await writeThenRename(directory.entry(temporaryName), directory.entry(name), content, true);
      } finally {
        await directory.close();
      }
      return;
    }
  }
  const directory = dirname(absolutePath);
  await mkdir(directory, { recursive: true });
  await writeThenRename(join(directory, temporaryName), absolutePath, content, false);
}

async function writeThenRename(
  temporaryPath: string,
  targetPath: string,
  content: string | Uint8Array,
  noFollow: boolean,
): Promise<void> {
  const existingMode = await existingFileMode(targetPath, noFollow);
  try {
    if (noFollow) {
      const handle = await open(
        temporaryPath,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o666,
      );
      try {
        await handle.writeFile(content);
        if (existingMode !== undefined) await handle.chmod(existingMode);
      } finally {
        await handle.close();
      }
    } else {
      await writeFile(temporaryPath, content, { flag: 'wx' });
      if (existingMode !== undefined) await chmod(temporaryPath, existingMode);
    }
    await rename(temporaryPath, targetPath);
  } catch (error) {
    await unlink(temporaryPath).catch(() => undefined);
    throw error;
  }
}

/** The permission bits of the file at `path` (the link itself with `noFollow`), if it is one. */
async function existingFileMode(path: string, noFollow: boolean): Promise<number | undefined> {
  try {
    const info = noFollow ? await lstat(path) : await stat(path);
    return info.isFile() ? info.mode & 0o7777 : undefined;
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
