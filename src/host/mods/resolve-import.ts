/**
 * How a mod's relative import names a file of its plugin, as Claude Code resolves it (measured
 * with `claude plugin validate` of 2.1.332, which "reads the hooks module's source the way the
 * engine will"; decision 0037):
 *
 * - A specifier with no suffix (`./rules`, or `./rules/`) tries, suffix by suffix in the order
 *   `.ts`, `.tsx`, `.jsx`, `.js`, `.mjs`, `.cjs`, `.mts`, `.cts`, the file (`rules.ts`) and then
 *   the folder's index (`rules/index.ts`) before the next suffix: `rules.ts` beats `rules.js` and
 *   `rules/index.ts`, but `rules/index.ts` beats `rules.tsx` and `rules.js`. The first that exists
 *   is the one loaded; two candidates are never an ambiguity.
 * - A specifier with a JavaScript suffix names that file, or when it is missing its TypeScript
 *   twin, as TypeScript's `bundler` resolution does (`./rules.js` loads `rules.ts`).
 * - Any other suffix names that file only.
 *
 * Synchronous (the worker's resolve hook is), and shared by the static scan so the two always
 * follow the same file.
 */
import { statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';

/** The suffixes a mod's module may have (the declarations' list), in Claude Code's try order. */
export const MODULE_SUFFIXES: readonly string[] = [
  '.ts',
  '.tsx',
  '.jsx',
  '.js',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
];

/** The TypeScript file a JavaScript suffix also finds when the file itself is missing. */
const TYPESCRIPT_TWIN: Readonly<Record<string, string>> = {
  '.js': '.ts',
  '.jsx': '.tsx',
  '.mjs': '.mts',
  '.cjs': '.cts',
};

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** Whether `specifier` is relative (`./x`, `../x`): the only imports a mod makes of its plugin. */
export const isRelativeSpecifier = (specifier: string): boolean =>
  specifier.startsWith('./') || specifier.startsWith('../');

/**
 * The absolute file a relative `specifier` written in `fromFile` loads, or `undefined` when no
 * file answers it (Claude Code's "cannot import … no such file").
 */
export function resolveModImport(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const folderOnly = specifier.endsWith('/');
  const suffix = folderOnly ? '' : extname(base);
  if (MODULE_SUFFIXES.includes(suffix)) {
    if (isFile(base)) return base;
    const twin = TYPESCRIPT_TWIN[suffix];
    const twinPath = twin === undefined ? undefined : `${base.slice(0, -suffix.length)}${twin}`;
    return twinPath !== undefined && isFile(twinPath) ? twinPath : undefined;
  }
  if (suffix !== '' && isFile(base)) return base;
  for (const candidate of MODULE_SUFFIXES) {
    if (!folderOnly && isFile(`${base}${candidate}`)) return `${base}${candidate}`;
    const index = resolve(base, `index${candidate}`);
    if (isFile(index)) return index;
  }
  return undefined;
}
