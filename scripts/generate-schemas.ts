/**
 * `npm run schemas`: writes the committed JSON Schemas to `schemas/` from the zod schemas they
 * describe: the hook wire (`src/wire`, see `generateJsonSchemas`) and the settings file
 * (`src/hook-kinds/settings`). `npm run schemas -- --check` writes nothing and exits 1 naming
 * every file that differs from the generator, is missing, or is a stale `*.schema.json` the
 * generator no longer makes (CI runs it).
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settingsJsonSchema } from '../src/hook-kinds/settings/settings-schema.ts';
import { generateJsonSchemas } from '../src/events/json-schemas.ts';

/** The directory the schemas are committed in. */
export const schemasDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');

/**
 * Every file of `schemas/`, keyed by file name, as the generator writes it (2-space JSON and a
 * final newline). Pure: tests compare it with the committed files.
 */
export function schemaFiles(): ReadonlyMap<string, string> {
  const files = new Map(generateJsonSchemas());
  files.set('settings.schema.json', `${JSON.stringify(settingsJsonSchema(), null, 2)}\n`);
  return new Map([...files].sort(([left], [right]) => (left < right ? -1 : 1)));
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Names of the files that differ from the generator (each with why); empty when up to date. */
export async function driftedSchemaFiles(
  files: ReadonlyMap<string, string> = schemaFiles(),
): Promise<string[]> {
  const existing = (await readdir(schemasDirectory).catch(() => [] as string[])).filter((name) =>
    name.endsWith('.schema.json'),
  );
  const drifted: string[] = [];
  for (const [name, text] of files) {
    const committed = await readOrUndefined(join(schemasDirectory, name));
    if (committed === undefined) drifted.push(`schemas/${name} (missing)`);
    else if (committed !== text) drifted.push(`schemas/${name} (differs)`);
  }
  for (const name of existing)
    if (!files.has(name)) drifted.push(`schemas/${name} (stale: no longer generated)`);
  return drifted;
}

async function main(check: boolean): Promise<number> {
  const files = schemaFiles();
  if (check) {
    const drifted = await driftedSchemaFiles(files);
    if (drifted.length > 0) {
      console.error(
        `schemas: ${drifted.length} file(s) out of date; run \`npm run schemas\` and commit:\n${drifted.map((line) => `  ${line}`).join('\n')}`,
      );
      return 1;
    }
    console.log(`schemas: ${files.size} files up to date`);
    return 0;
  }
  await mkdir(schemasDirectory, { recursive: true });
  let written = 0;
  for (const [name, text] of files) {
    const path = join(schemasDirectory, name);
    if ((await readOrUndefined(path)) === text) continue;
    await writeFile(path, text);
    written++;
  }
  console.log(`schemas: ${written} of ${files.size} files written to schemas/`);
  for (const line of await driftedSchemaFiles(files)) console.warn(`schemas: ${line}; delete it`);
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.includes('--check'));
