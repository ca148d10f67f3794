/**
 * Plugin directories holding Claude Code mods of the tests' own, for `hookwire run --plugin-dir`
 * (and the adapters' `pluginDirs`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeJson, type Sandbox } from './support.ts';

/**
 * Writes a plugin directory whose hooks/hooks.json names `register.ts`, plus `files` (paths
 * relative to hooks/, e.g. `rules.ts`, `policy/index.ts`); returns its path.
 */
export async function writeMod(
  sandbox: Pick<Sandbox, 'root'>,
  name: string,
  source: string,
  manifest: Record<string, unknown> = {},
  files: Readonly<Record<string, string>> = {},
): Promise<string> {
  const root = join(sandbox.root, 'plugins', name);
  await mkdir(join(root, 'hooks'), { recursive: true });
  await writeJson(join(root, '.claude-plugin', 'plugin.json'), { name, ...manifest });
  await writeJson(join(root, 'hooks', 'hooks.json'), { modules: ['./register.ts'] });
  await writeFile(join(root, 'hooks', 'register.ts'), source);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, 'hooks', path)), { recursive: true });
    await writeFile(join(root, 'hooks', path), text);
  }
  return root;
}

/** `--plugin-dir` for each root. */
export const pluginArgs = (...roots: string[]): string[] =>
  roots.flatMap((root) => ['--plugin-dir', root]);
