/**
 * A plugin is trusted as a whole, by the SHA-256 of its directory's content: every file's path,
 * whether it is executable, and its bytes (a symbolic link's target text), in path order. Any
 * change to any file (a hook script, an agent, the MCP server's code) untrusts it.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** More than this many entries, or bytes, and the plugin cannot be fingerprinted (nor trusted). */
export const PLUGIN_HASH_LIMITS = { maxEntries: 20_000, maxBytes: 256 * 1024 * 1024 } as const;

/** The plugin directory is too large to fingerprint. */
export class PluginTooLargeError extends Error {
  constructor(root: string) {
    super(
      `the plugin directory ${root} has more than ${PLUGIN_HASH_LIMITS.maxEntries} entries or ${PLUGIN_HASH_LIMITS.maxBytes / 1024 / 1024} MiB: it cannot be fingerprinted for trust`,
    );
    this.name = 'PluginTooLargeError';
  }
}

/** The SHA-256 (hex) of the content of the directory `root` (see the module comment). */
export async function pluginContentHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  let entries = 0;
  let bytes = 0;
  const walk = async (directory: string, prefix: string): Promise<void> => {
    const names = (await readdir(directory)).sort();
    for (const name of names) {
      entries += 1;
      if (entries > PLUGIN_HASH_LIMITS.maxEntries) throw new PluginTooLargeError(root);
      const path = join(directory, name);
      const relative = prefix === '' ? name : `${prefix}/${name}`;
      const info = await lstat(path);
      if (info.isDirectory()) {
        hash.update(`d\0${relative}\0`);
        await walk(path, relative);
      } else if (info.isSymbolicLink()) {
        hash.update(`l\0${relative}\0${await readlink(path)}\0`);
      } else if (info.isFile()) {
        bytes += info.size;
        if (bytes > PLUGIN_HASH_LIMITS.maxBytes) throw new PluginTooLargeError(root);
        const content = await readFile(path);
        const executable = (info.mode & 0o111) !== 0 ? 'x' : 'f';
        hash.update(`${executable}\0${relative}\0${String(content.length)}\0`);
        hash.update(content);
      }
    }
  };
  await walk(root, '');
  return hash.digest('hex');
}

/** The fingerprint the trust record keeps for a plugin: its name and content hash. */
export function pluginFingerprint(name: string, contentHash: string): string {
  return createHash('sha256').update(`plugin\0${name}\0${contentHash}`).digest('hex');
}
