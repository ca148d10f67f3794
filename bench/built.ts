/**
 * Where the benchmarks take hookwire from: the built `dist/` users run when it exists (after
 * `npm run build`), else the sources, so a benchmark also runs on a checkout that was never built.
 * Every benchmark loads hookwire through `load` so one process never mixes the two copies (a
 * `HookStack` of `src/` is not one of `dist/`), and prints `timing()` beside its figures.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether the benchmarks time `dist/` (built) or `src/`. */
export const fromDist = existsSync(join(repositoryRoot, 'dist', 'index.js'));

/** A module of the build (`dist/X.js`) when built, else of the sources (`src/X.ts`). */
export async function load<Module>(path: string): Promise<Module> {
  return (await import(
    fromDist
      ? join(repositoryRoot, 'dist', `${path}.js`)
      : join(repositoryRoot, 'src', `${path}.ts`)
  )) as Module;
}

/** The newest modification time of a `.ts` file under `directory`, in ms. */
function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** One line saying what is timed, and whether the build is older than the sources. */
export function timing(): string {
  if (!fromDist) return 'timing src/ (run npm run build to time dist/)';
  const built = statSync(join(repositoryRoot, 'dist', 'index.js')).mtimeMs;
  return newestSource(join(repositoryRoot, 'src')) > built
    ? 'timing dist/, which is OLDER than src/: run npm run build to time the current code'
    : 'timing dist/';
}
