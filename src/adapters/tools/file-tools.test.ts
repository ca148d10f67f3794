import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTempWorkspace,
  type TempWorkspace,
} from '../../../test/fixtures/tools/temp-workspace.ts';
import { HookwireError } from '../../content/index.ts';
import { editFileTool } from './edit-file-tool.ts';
import { readFileTool } from './read-file-tool.ts';
import { ToolError } from './tool-error.ts';
import { writeFileTool } from './write-file-tool.ts';

let workspace: TempWorkspace;
beforeEach(async () => {
  workspace = await createTempWorkspace();
});
afterEach(async () => {
  await workspace.remove();
});

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error: unknown = await promise.then(
    () => expect.fail('expected the tool to fail'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect(HookwireError.isInstance(error)).toBe(true);
  return error as ToolError;
}

describe('read_file', () => {
  it('reads a UTF-8 file relative to cwd', async () => {
    await workspace.write({ 'docs/note.md': 'héllo ✓\nsecond line\n' });
    await expect(readFileTool().execute({ path: 'docs/note.md' }, workspace.context)).resolves.toBe(
      'héllo ✓\nsecond line\n',
    );
  });

  it('reads an absolute path', async () => {
    await workspace.write({ 'a.txt': 'absolute' });
    await expect(
      readFileTool().execute({ path: workspace.path('a.txt') }, workspace.context),
    ).resolves.toBe('absolute');
  });

  it('cuts a large file at the cap, at a character boundary, with a note', async () => {
    // 'é' is two bytes: a 5-byte cap falls inside the third one.
    await workspace.write({ 'big.txt': 'éééééé' });
    const result = await readFileTool({ maxBytes: 5 }).execute(
      { path: 'big.txt' },
      workspace.context,
    );
    expect(result).toBe('éé\n[truncated: showed the first 5 of 12 bytes of big.txt]');
  });

  it('reads a file exactly at the cap whole', async () => {
    await workspace.write({ 'exact.txt': '12345' });
    await expect(
      readFileTool({ maxBytes: 5 }).execute({ path: 'exact.txt' }, workspace.context),
    ).resolves.toBe('12345');
  });

  it('names the path of a missing file', async () => {
    const error = await failure(
      readFileTool().execute({ path: 'nope/missing.txt' }, workspace.context),
    );
    expect(error.code).toBe('file_not_found');
    expect(error.toolName).toBe('read_file');
    expect(error.message).toBe('File not found: nope/missing.txt');
  });

  it('refuses a directory and points to glob', async () => {
    await workspace.write({ 'dir/a.txt': 'a' });
    const error = await failure(readFileTool().execute({ path: 'dir' }, workspace.context));
    expect(error.code).toBe('is_directory');
    expect(error.message).toBe('dir is a directory, not a file; use glob to list its files.');
  });

  it('refuses a binary file', async () => {
    await workspace.write({ 'image.bin': new Uint8Array([0x89, 0x50, 0x00, 0x47]) });
    const error = await failure(readFileTool().execute({ path: 'image.bin' }, workspace.context));
    expect(error.code).toBe('binary_file');
    expect(error.message).toMatch(/^image\.bin is a binary file \(4 bytes\)/);
  });
});

describe('write_file', () => {
  it('creates the file and its parent directories and confirms the byte count', async () => {
    const result = await writeFileTool().execute(
      { path: 'a/b/c.txt', content: 'héllo' },
      workspace.context,
    );
    expect(result).toBe('Wrote 6 bytes to a/b/c.txt');
    await expect(readFile(workspace.path('a/b/c.txt'), 'utf8')).resolves.toBe('héllo');
  });

  it('replaces an existing file, keeps its permissions and leaves no temporary file', async () => {
    await workspace.write({ 'run.sh': 'old' });
    await chmod(workspace.path('run.sh'), 0o755);
    await writeFileTool().execute({ path: 'run.sh', content: 'new contents' }, workspace.context);
    await expect(readFile(workspace.path('run.sh'), 'utf8')).resolves.toBe('new contents');
    expect((await stat(workspace.path('run.sh'))).mode & 0o777).toBe(0o755);
    await expect(readdir(workspace.root)).resolves.toEqual(['run.sh']);
  });

  it('writes atomically: the target is replaced by a rename, never rewritten in place', async () => {
    await workspace.write({ 'data.json': '{"version":1}' });
    const before = await stat(workspace.path('data.json'));
    await writeFileTool().execute(
      { path: 'data.json', content: '{"version":2}' },
      workspace.context,
    );
    const after = await stat(workspace.path('data.json'));
    // A rename installs a new inode; an in-place write (which a reader could see half done) keeps it.
    expect(after.ino).not.toBe(before.ino);
    await expect(readFile(workspace.path('data.json'), 'utf8')).resolves.toBe('{"version":2}');
  });

  it('refuses to write over a directory and cleans up its temporary file', async () => {
    await workspace.write({ 'dir/inner.txt': 'x' });
    const error = await failure(
      writeFileTool().execute({ path: 'dir', content: 'x' }, workspace.context),
    );
    expect(error.code).toBe('is_directory');
    expect(error.message).toBe('dir is a directory; give the path of a file.');
    await expect(readdir(workspace.root)).resolves.toEqual(['dir']);
  });

  it('reports a parent path that is a file', async () => {
    await workspace.write({ 'file.txt': 'x' });
    const error = await failure(
      writeFileTool().execute({ path: 'file.txt/child.txt', content: 'x' }, workspace.context),
    );
    expect(error.code).toBe('not_a_directory');
    expect(error.message).toMatch(/^Cannot write file\.txt\/child\.txt: a parent of it is a file/);
  });
});

describe('edit_file', () => {
  it('replaces the single occurrence and confirms', async () => {
    await workspace.write({ 'src/app.ts': 'const a = 1;\nconst b = 2;\n' });
    const result = await editFileTool().execute(
      { path: 'src/app.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' },
      workspace.context,
    );
    expect(result).toBe('Edited src/app.ts: replaced 1 occurrence (26 bytes now)');
    await expect(readFile(workspace.path('src/app.ts'), 'utf8')).resolves.toBe(
      'const a = 1;\nconst b = 3;\n',
    );
  });

  it('inserts the replacement literally, `$` patterns included', async () => {
    await workspace.write({ 'price.txt': 'price: X' });
    await editFileTool().execute(
      { path: 'price.txt', old_string: 'X', new_string: "$& $1 $$ $'" },
      workspace.context,
    );
    await expect(readFile(workspace.path('price.txt'), 'utf8')).resolves.toBe("price: $& $1 $$ $'");
  });

  it('fails when the text does not occur, leaving the file unchanged', async () => {
    await workspace.write({ 'a.txt': 'alpha' });
    const error = await failure(
      editFileTool().execute(
        { path: 'a.txt', old_string: 'beta', new_string: 'gamma' },
        workspace.context,
      ),
    );
    expect(error.code).toBe('edit_not_found');
    expect(error.message).toMatch(/^old_string was not found in a\.txt/);
    await expect(readFile(workspace.path('a.txt'), 'utf8')).resolves.toBe('alpha');
  });

  it('fails when the text occurs more than once, saying how many times', async () => {
    await workspace.write({ 'a.txt': 'x = 1\nx = 1\nx = 1\n' });
    const error = await failure(
      editFileTool().execute(
        { path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' },
        workspace.context,
      ),
    );
    expect(error.code).toBe('edit_ambiguous');
    expect(error.message).toBe(
      'old_string occurs 3 times in a.txt; include more surrounding context so it matches exactly once.',
    );
    await expect(readFile(workspace.path('a.txt'), 'utf8')).resolves.toBe('x = 1\nx = 1\nx = 1\n');
  });

  it('counts overlapping occurrences as ambiguous', async () => {
    await workspace.write({ 'a.txt': 'aaa' });
    const error = await failure(
      editFileTool().execute(
        { path: 'a.txt', old_string: 'aa', new_string: 'b' },
        workspace.context,
      ),
    );
    expect(error.message).toMatch(/^old_string occurs 2 times/);
  });

  it('accepts text made unique by more context', async () => {
    await workspace.write({ 'a.txt': 'one: x = 1\ntwo: x = 1\n' });
    await editFileTool().execute(
      { path: 'a.txt', old_string: 'two: x = 1', new_string: 'two: x = 2' },
      workspace.context,
    );
    await expect(readFile(workspace.path('a.txt'), 'utf8')).resolves.toBe(
      'one: x = 1\ntwo: x = 2\n',
    );
  });

  it('points to write_file when the file does not exist', async () => {
    const error = await failure(
      editFileTool().execute(
        { path: 'new.txt', old_string: 'a', new_string: 'b' },
        workspace.context,
      ),
    );
    expect(error.code).toBe('file_not_found');
    expect(error.message).toBe('File not found: new.txt; to create a file, use write_file.');
  });

  it('refuses an edit that changes nothing', async () => {
    await workspace.write({ 'a.txt': 'same' });
    const error = await failure(
      editFileTool().execute(
        { path: 'a.txt', old_string: 'same', new_string: 'same' },
        workspace.context,
      ),
    );
    expect(error.code).toBe('edit_no_change');
  });

  it('writes the edit atomically', async () => {
    await workspace.write({ 'a.txt': 'before' });
    const inode = (await stat(workspace.path('a.txt'))).ino;
    await writeFile(workspace.path('b.txt'), 'unrelated');
    await editFileTool().execute(
      { path: 'a.txt', old_string: 'before', new_string: 'after' },
      workspace.context,
    );
    expect((await stat(workspace.path('a.txt'))).ino).not.toBe(inode);
    await expect(readdir(workspace.root).then((names) => names.sort())).resolves.toEqual([
      'a.txt',
      'b.txt',
    ]);
  });
});
