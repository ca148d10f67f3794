import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;
let manifest: Readonly<Record<string, unknown>> | undefined;

/**
 * The directory of hookwire's own package.json: the nearest one above this module whose `name` is
 * `hookwire`. Files shipped beside the code (the native spawn helper, package.json itself) are
 * found from here rather than by a fixed number of `..`, because this module sits at a different
 * depth in the sources (`src/hook-kinds/`), the compiled library (`dist/hook-kinds/`) and the
 * bundled command (`dist/bin/`, one file per chunk). Found once per process.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const parsed = readManifest(join(dir, 'package.json'));
    if (parsed?.['name'] === 'hookwire') {
      manifest = parsed;
      return (root = dir);
    }
    if (dirname(dir) === dir) throw new Error(`hookwire's package.json not found above ${start}`);
  }
}

/** Path of a file of the hookwire package, given relative to the package root. */
export function packageFile(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}

/** hookwire's package.json, parsed (read once per process, with `packageRoot`). */
export function packageManifest(): Readonly<Record<string, unknown>> {
  packageRoot();
  return manifest ?? {};
}

function readManifest(file: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
