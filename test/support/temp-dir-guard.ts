/**
 * Vitest global setup: every test run gets a private temporary directory, and the run fails if
 * a test leaves anything in it.
 *
 * Before any worker starts, `TMPDIR` is pointed at a fresh directory, so `os.tmpdir()` in the
 * test workers, in the `hookwire` processes they spawn and in the hooks those run all resolve
 * there. After the last test, whatever is still in it leaked: a test that created a temporary
 * file or folder and did not remove it. The run then fails naming each entry (the directory is
 * removed either way). Because the directory is private to this run, suites running at the
 * same time on the same machine cannot disturb the check.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Caches tools keep in the temporary directory on purpose (tsc and eslint enable Node's compile cache). */
const TOOL_CACHES: ReadonlySet<string> = new Set(['node-compile-cache']);

export default function setup(): () => void {
  const previous = process.env['TMPDIR'];
  const directory = mkdtempSync(join(tmpdir(), 'hookwire-test-run-'));
  process.env['TMPDIR'] = directory;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    const leaked = readdirSync(directory).filter((entry) => !TOOL_CACHES.has(entry));
    rmSync(directory, { recursive: true, force: true });
    if (leaked.length > 0)
      throw new Error(
        `${leaked.length} temporary ${leaked.length === 1 ? 'entry was' : 'entries were'} left behind by the tests (each test must remove what it creates): ${leaked.sort().join(', ')}`,
      );
  };
}
