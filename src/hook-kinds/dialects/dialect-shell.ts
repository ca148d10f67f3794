import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { shellQuote } from '../../supervision/process-confinement.ts';
import { DIALECTS } from './dialect.ts';
import type { DialectName } from './vocabulary.ts';

let bashPath: string | null | undefined;

/** bash's path on `PATH` (looked up once), or `null` when there is none. */
function findBash(): string | null {
  if (bashPath !== undefined) return bashPath;
  bashPath = null;
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, 'bash');
    try {
      accessSync(candidate, constants.X_OK);
      bashPath = candidate;
      break;
    } catch {
      // not here
    }
  }
  return bashPath;
}

/**
 * The command line the runner starts (under `sh -c`) for a hook of `dialect`: Gemini CLI runs its
 * hooks under `bash -c`, so a Gemini hook using bash syntax (`[[ … ]]`, arrays, `$'…'`) runs
 * under bash when bash exists (else under sh, as everything else). Other dialects and hookwire's
 * own hooks are unchanged.
 */
export function dialectCommand(command: string, dialect: DialectName | undefined): string {
  if (dialect === undefined || DIALECTS[dialect].shell !== 'bash') return command;
  const bash = findBash();
  return bash === null ? command : `exec ${shellQuote(bash)} -c ${shellQuote(command)}`;
}
