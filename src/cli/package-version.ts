import { readFileSync } from 'node:fs';

/**
 * The `version` of hookwire's package.json. The file sits two directories above this module both
 * in the sources (`src/cli/`) and in the build (`dist/cli/`), so one relative URL serves both.
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed = JSON.parse(text) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
}
