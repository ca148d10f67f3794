import { symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTempWorkspace,
  type TempWorkspace,
} from '../../../test/fixtures/tools/temp-workspace.ts';
import { globTool } from './glob-tool.ts';
import { grepTool } from './grep-tool.ts';
import { ToolError } from './tool-error.ts';

let workspace: TempWorkspace;
beforeEach(async () => {
  workspace = await createTempWorkspace({
    'src/b.ts': 'export const b = 1;\n// TODO: b\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/nested/c.ts': 'const c = "TODO later";\n\nTODO again\n',
    'src-extra.ts': 'TODO at top\n',
    'README.md': '# Title\nTODO: write docs\r\nlast line without newline TODO',
    '.hidden/secret.ts': 'TODO hidden\n',
    'node_modules/dep/index.ts': 'TODO in dependency\n',
    '.git/config.ts': 'TODO in git\n',
    'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x54, 0x4f, 0x44, 0x4f]),
  });
});
afterEach(async () => {
  await workspace.remove();
});

describe('glob', () => {
  it('lists matching files relative to cwd, sorted, without dot files, node_modules or .git', async () => {
    const result = await globTool().execute({ pattern: '**/*.ts' }, workspace.context);
    expect(result).toBe(['src-extra.ts', 'src/a.ts', 'src/b.ts', 'src/nested/c.ts'].join('\n'));
  });

  it('matches brace patterns in one directory', async () => {
    await expect(globTool().execute({ pattern: '*.{md,png}' }, workspace.context)).resolves.toBe(
      'README.md\nlogo.png',
    );
  });

  it('says so when nothing matches', async () => {
    await expect(globTool().execute({ pattern: '**/*.rs' }, workspace.context)).resolves.toBe(
      'No files match **/*.rs',
    );
  });

  it('caps the listing with a note giving the total', async () => {
    const result = await globTool({ maxResults: 2 }).execute(
      { pattern: '**/*.ts' },
      workspace.context,
    );
    expect(result).toBe(
      'src-extra.ts\nsrc/a.ts\n[truncated: showed 2 of 4 matching files; use a narrower pattern]',
    );
  });

  it('lists exactly the cap without a note', async () => {
    const result = await globTool({ maxResults: 4 }).execute(
      { pattern: '**/*.ts' },
      workspace.context,
    );
    expect(result).not.toContain('truncated');
  });
});

describe('grep', () => {
  it('lists file:line:text sorted by file then line, skipping node_modules, .git and binary files', async () => {
    const result = await grepTool().execute({ pattern: 'TODO' }, workspace.context);
    expect(result).toBe(
      [
        '.hidden/secret.ts:1:TODO hidden',
        'README.md:2:TODO: write docs',
        'README.md:3:last line without newline TODO',
        'src-extra.ts:1:TODO at top',
        'src/b.ts:2:// TODO: b',
        'src/nested/c.ts:1:const c = "TODO later";',
        'src/nested/c.ts:3:TODO again',
      ].join('\n'),
    );
  });

  it('searches under a directory given by path', async () => {
    const result = await grepTool().execute(
      { pattern: 'TODO', path: 'src/nested' },
      workspace.context,
    );
    expect(result).toBe('src/nested/c.ts:1:const c = "TODO later";\nsrc/nested/c.ts:3:TODO again');
  });

  it('searches a single file given by path', async () => {
    const result = await grepTool().execute(
      { pattern: '^export', path: 'src/a.ts' },
      workspace.context,
    );
    expect(result).toBe('src/a.ts:1:export const a = 1;');
  });

  it('uses the pattern as a JavaScript regular expression', async () => {
    const result = await grepTool().execute(
      { pattern: String.raw`const [ab] = \d;$` },
      workspace.context,
    );
    expect(result).toBe('src/a.ts:1:export const a = 1;\nsrc/b.ts:1:export const b = 1;');
  });

  it('finds empty lines, but not one after the final newline', async () => {
    const result = await grepTool().execute({ pattern: '^$', path: 'src' }, workspace.context);
    expect(result).toBe('src/nested/c.ts:2:');
  });

  it('stops at the cap with a note', async () => {
    const result = await grepTool({ maxMatches: 3 }).execute(
      { pattern: 'TODO' },
      workspace.context,
    );
    expect(result).toBe(
      [
        '.hidden/secret.ts:1:TODO hidden',
        'README.md:2:TODO: write docs',
        'README.md:3:last line without newline TODO',
        '[truncated: stopped after 3 matching lines; narrow the pattern or path]',
      ].join('\n'),
    );
  });

  it('adds no note when the matches fill the cap exactly', async () => {
    const result = await grepTool({ maxMatches: 7 }).execute(
      { pattern: 'TODO' },
      workspace.context,
    );
    expect(result).not.toContain('truncated');
    expect(String(result).split('\n')).toHaveLength(7);
  });

  it('cuts long matching lines', async () => {
    await workspace.write({ 'long.txt': `needle ${'x'.repeat(100)}\n` });
    const result = await grepTool({ maxLineLength: 10 }).execute(
      { pattern: 'needle', path: 'long.txt' },
      workspace.context,
    );
    expect(result).toBe('long.txt:1:needle xxx…');
  });

  it('skips files over the size limit and says how many', async () => {
    await workspace.write({
      'huge/big.txt': `TODO ${'y'.repeat(100)}`,
      'huge/small.txt': 'TODO small',
    });
    const result = await grepTool({ maxFileBytes: 50 }).execute(
      { pattern: 'TODO', path: 'huge' },
      workspace.context,
    );
    expect(result).toBe('huge/small.txt:1:TODO small\n[skipped 1 file(s) larger than 50 bytes]');
  });

  it('does not follow symbolic links', async () => {
    await symlink(workspace.path('src'), workspace.path('linked'));
    const result = await grepTool().execute({ pattern: 'export const a' }, workspace.context);
    expect(result).toBe('src/a.ts:1:export const a = 1;');
  });

  it('says so when nothing matches, counting binary files it skipped', async () => {
    await expect(grepTool().execute({ pattern: 'PNG' }, workspace.context)).resolves.toBe(
      'No matches for "PNG" in . (1 binary file(s) not searched)',
    );
  });

  it('rejects an invalid regular expression', async () => {
    const error: unknown = await grepTool()
      .execute({ pattern: '(unclosed' }, workspace.context)
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('invalid_pattern');
    expect((error as ToolError).message).toMatch(/^Invalid regular expression "\(unclosed": /);
  });

  it('rejects a missing path', async () => {
    const error: unknown = await grepTool()
      .execute({ pattern: 'x', path: 'nowhere' }, workspace.context)
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toBe('Path not found: nowhere');
  });

  it('stops when the run is cancelled', async () => {
    workspace.abort(new Error('cancelled by test'));
    await expect(grepTool().execute({ pattern: 'TODO' }, workspace.context)).rejects.toThrow(
      'cancelled by test',
    );
  });
});
