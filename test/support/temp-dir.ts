import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * Creates a directory under the system temporary directory, named `hookwire-NAME-…`, and removes
 * it (with everything in it) when the current test finishes. Call it inside a test.
 */
export async function testTempDir(name: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `hookwire-${name}-`));
  onTestFinished(async () => {
    await rm(directory, { recursive: true, force: true });
  });
  return directory;
}
