/**
 * The per-event check of a hook's named scripts re-hashes a file only when it changed (issue 29):
 * these tests fail if the memory ever stands in for a file that was edited, replaced, renamed
 * over or had its times put back, or remembers a file changed too recently to tell.
 */
import { mkdtemp, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  RACY_WINDOW_NS,
  VerifiedStates,
  changedScriptExecution,
  namedFileState,
  namedFilesChangedSince,
} from './named-files.ts';

let project: string;
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'hookwire-verified-'));
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

/** A memory whose clock reads later than the real one, so files written now count as settled. */
function settledMemory(): VerifiedStates {
  return new VerifiedStates({
    now: () => BigInt(Date.now()) * 1_000_000n + RACY_WINDOW_NS * 5n,
  });
}

async function trusted(name: string, content: string): Promise<Record<string, string>> {
  const path = join(project, name);
  await writeFile(path, content);
  const state = await namedFileState(path);
  if (state === undefined) throw new Error('not a file');
  return { [name]: state };
}

describe('VerifiedStates', () => {
  it('remembers a settled file it hashed and reuses the state while the file is the same', async () => {
    const files = await trusted('guard.sh', 'echo ok\n');
    const memory = settledMemory();
    const path = join(project, 'guard.sh');
    expect(memory.known(path)).toBeUndefined();
    expect(await namedFilesChangedSince(files, project, memory)).toEqual([]);
    expect(memory.known(path)).toBe(files['guard.sh']);
    expect(await namedFilesChangedSince(files, project, memory)).toEqual([]);
  });

  it('hashes again a file edited in place with the same size, even with its times put back', async () => {
    const files = await trusted('guard.sh', 'echo ok\n');
    const memory = settledMemory();
    const path = join(project, 'guard.sh');
    expect(await namedFilesChangedSince(files, project, memory)).toEqual([]);
    const before = await stat(path);
    await writeFile(path, 'echo no\n'); // same size
    await utimes(path, before.atime, before.mtime); // mtime restored; ctime moves regardless
    expect(memory.known(path)).toBeUndefined();
    expect(await namedFilesChangedSince(files, project, memory)).toEqual(['guard.sh']);
  });

  it('hashes again a file replaced by a rename (another inode), and a removed one', async () => {
    const files = await trusted('guard.sh', 'echo ok\n');
    const memory = settledMemory();
    expect(await namedFilesChangedSince(files, project, memory)).toEqual([]);
    await writeFile(join(project, 'other.sh'), 'echo no\n');
    await rename(join(project, 'other.sh'), join(project, 'guard.sh'));
    expect(await namedFilesChangedSince(files, project, memory)).toEqual(['guard.sh']);
    await rm(join(project, 'guard.sh'));
    expect(await namedFilesChangedSince(files, project, memory)).toEqual(['guard.sh']);
  });

  it('does not remember a file changed within the racy window of its hashing', async () => {
    const files = await trusted('guard.sh', 'echo ok\n');
    const memory = new VerifiedStates(); // the real clock: the file was written just now
    const path = join(project, 'guard.sh');
    expect(await namedFilesChangedSince(files, project, memory)).toEqual([]);
    expect(memory.known(path)).toBeUndefined();
    await writeFile(path, 'echo no\n');
    expect(await namedFilesChangedSince(files, project, memory)).toEqual(['guard.sh']);
  });

  it('forgets everything past its size bound rather than growing', async () => {
    const memory = new VerifiedStates({
      now: () => BigInt(Date.now()) * 1_000_000n + RACY_WINDOW_NS * 5n,
      maxEntries: 2,
    });
    const files = {
      ...(await trusted('a.sh', 'a')),
      ...(await trusted('b.sh', 'b')),
      ...(await trusted('c.sh', 'c')),
    };
    expect(await namedFilesChangedSince(files, project, memory)).toEqual([]);
    const remembered = ['a.sh', 'b.sh', 'c.sh'].filter(
      (name) => memory.known(join(project, name)) !== undefined,
    );
    expect(remembered.length).toBeLessThanOrEqual(2);
  });

  it('the check before each run answers at once while a stat vouches, and still refuses an edit', async () => {
    const files = await trusted('guard.sh', 'echo ok\n');
    const memory = settledMemory();
    const path = join(project, 'guard.sh');
    // First run: hashed (a promise), and remembered.
    const first = changedScriptExecution(files, project, memory);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBeUndefined();
    // Later runs: no promise, nothing read.
    expect(changedScriptExecution(files, project, memory)).toBeUndefined();
    const before = await stat(path);
    await writeFile(path, 'echo no\n'); // same size
    await utimes(path, before.atime, before.mtime);
    const edited = changedScriptExecution(files, project, memory);
    expect(edited).toBeInstanceOf(Promise);
    expect((await edited)?.answer).toEqual({
      kind: 'failure',
      status: 'error',
      what: expect.stringContaining('script changed since trusted: guard.sh') as string,
    });
    // Removed: refused too (hashed again: absent).
    await rm(path);
    expect((await changedScriptExecution(files, project, memory))?.answer.kind).toBe('failure');
  });
});
