/**
 * `npm run bench [-- NAME…]`: runs every benchmark under bench/ (or the named ones) and prints
 * each figure beside its baseline measured in the same run. `--json FILE` also writes the figures.
 */
import { readdir, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allResults } from './harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const names: string[] = [];
let jsonFile: string | undefined;
for (let index = 2; index < process.argv.length; index++) {
  const argument = process.argv[index] ?? '';
  if (argument === '--json') jsonFile = process.argv[++index];
  else names.push(argument);
}

const files = (await readdir(here)).filter((file) => file.endsWith('.bench.ts')).sort();
const selected =
  names.length === 0 ? files : files.filter((file) => names.some((name) => file.startsWith(name)));
if (selected.length === 0) {
  console.error(`bench: no benchmark matches ${names.join(', ')}; have ${files.join(', ')}`);
  process.exit(1);
}
for (const file of selected) {
  console.log(`\n== ${file} ==`);
  const module = (await import(join(here, file))) as { default: () => Promise<void> };
  await module.default();
}
if (jsonFile !== undefined) {
  await mkdir(dirname(jsonFile), { recursive: true });
  await writeFile(jsonFile, JSON.stringify(allResults(), null, 2));
}
const over = allResults().filter(
  (result) => result.limit !== undefined && result.ratio > result.limit,
);
console.log(`\n${allResults().length} figures, ${over.length} over their limit`);
