import { isAbsolute, relative, resolve } from 'node:path';

/** The absolute path of `path`, resolved against `cwd` unless it is already absolute. */
export function resolveToolPath(cwd: string, path: string): string {
  return resolve(cwd, path);
}

/**
 * How a tool shows `absolutePath` to the model: relative to `cwd` when it lies inside it (short
 * and stable across machines), absolute otherwise.
 */
export function displayPath(cwd: string, absolutePath: string): string {
  const relativePath = relative(cwd, absolutePath);
  if (relativePath === '') return '.';
  if (relativePath.startsWith('..') || isAbsolute(relativePath)) return absolutePath;
  return relativePath;
}

/** The `code` of a Node.js system error (`ENOENT`, `EISDIR`, …), or `undefined`. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}
