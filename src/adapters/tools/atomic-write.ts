import { randomHex } from '../../content/random-id.ts';
import { chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { systemErrorCode } from './tool-paths.ts';

/**
 * Writes `content` to `absolutePath` atomically: the bytes go to a temporary file beside the
 * target, which is then renamed over it, so a reader sees the old file or the new one and never a
 * partial write. Parent directories are created; an existing file keeps its permission bits. The
 * temporary file is removed when the write fails.
 */
export async function writeFileAtomically(
  absolutePath: string,
  content: string | Uint8Array,
): Promise<void> {
  const directory = dirname(absolutePath);
  await mkdir(directory, { recursive: true });
  const existingMode = await existingFileMode(absolutePath);
  const temporaryPath = join(
    directory,
    `.${basename(absolutePath)}.${process.pid}.${randomHex(6)}.tmp`,
  );
  try {
    await writeFile(temporaryPath, content, { flag: 'wx' });
    if (existingMode !== undefined) await chmod(temporaryPath, existingMode);
    await rename(temporaryPath, absolutePath);
  } catch (error) {
    await unlink(temporaryPath).catch(() => undefined);
    throw error;
  }
}

async function existingFileMode(absolutePath: string): Promise<number | undefined> {
  try {
    const info = await stat(absolutePath);
    return info.isFile() ? info.mode & 0o7777 : undefined;
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
