import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolExecutionContext } from '../../loop/tool.ts';
import { builtinTools } from './builtin-tools.ts';
import { ToolError } from './tool-error.ts';
import type { Tool } from '../../loop/tool.ts';

let root: string;
let project: string;
let outside: string;
let context: ToolExecutionContext;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'hookwire-confine-')));
  project = join(root, 'project');
  outside = join(root, 'outside');
  await mkdir(join(project, 'src'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(project, 'src', 'a.txt'), 'inside\n');
  await writeFile(join(outside, 'secret.txt'), 'SECRET=1\n');
  context = { signal: new AbortController().signal, cwd: project, toolCallId: 'call-1' };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function tools(additionalDirectories?: string[]): Map<string, Tool> {
  const list = builtinTools(additionalDirectories === undefined ? {} : { additionalDirectories });
  return new Map(list.map((tool) => [tool.declaration.name, tool]));
}

async function refused(tool: Tool | undefined, args: unknown): Promise<ToolError> {
  const error: unknown = await tool!.execute(args, context).then(
    () => expect.fail('expected the call to be refused'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe('path_outside_project');
  expect((error as ToolError).message).toContain('outside the project directory');
  return error as ToolError;
}

describe('file tools are confined to the project directory', () => {
  it('refuses ../, absolute paths and links that lead outside, for every file tool', async () => {
    await symlink(join(outside, 'secret.txt'), join(project, 'innocent.txt'));
    await symlink(outside, join(project, 'linked-dir'));
    const all = tools();
    for (const path of [
      '../outside/secret.txt',
      join(outside, 'secret.txt'),
      'innocent.txt',
      'linked-dir/secret.txt',
    ]) {
      await refused(all.get('read_file'), { path });
      await refused(all.get('write_file'), { path, content: 'pwned' });
      await refused(all.get('edit_file'), { path, old_string: 'SECRET', new_string: 'PWNED' });
      await refused(all.get('grep'), { pattern: 'SECRET', path });
    }
    await refused(all.get('glob'), { pattern: '../outside/*' });
    await refused(all.get('glob'), { pattern: `${outside}/*` });
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET=1\n');
  });

  it('refuses writing a new file through a dangling link that points outside', async () => {
    await symlink(join(outside, 'created.txt'), join(project, 'dangling'));
    const error = await refused(tools().get('write_file'), { path: 'dangling', content: 'x' });
    expect(error.message).toContain(join(outside, 'created.txt'));
    await expect(stat(join(outside, 'created.txt'))).rejects.toThrow();
  });

  it('refuses a path whose parent directory is a link leading outside, even for a new file', async () => {
    await symlink(outside, join(project, 'out'));
    await refused(tools().get('write_file'), { path: 'out/new/deep.txt', content: 'x' });
    await expect(stat(join(outside, 'new'))).rejects.toThrow();
  });

  it('still reads, writes and edits inside, through links that stay inside', async () => {
    await symlink(join(project, 'src', 'a.txt'), join(project, 'alias.txt'));
    const all = tools();
    await expect(all.get('read_file')!.execute({ path: 'alias.txt' }, context)).resolves.toBe(
      'inside\n',
    );
    await all
      .get('edit_file')!
      .execute({ path: 'alias.txt', old_string: 'inside', new_string: 'edited' }, context);
    expect(await readFile(join(project, 'src', 'a.txt'), 'utf8')).toBe('edited\n');
    await all.get('write_file')!.execute({ path: 'src/../new.txt', content: 'n' }, context);
    expect(await readFile(join(project, 'new.txt'), 'utf8')).toBe('n');
  });

  it('allows the directories added with --add-dir, and only those', async () => {
    const all = tools([outside]);
    await expect(
      all.get('read_file')!.execute({ path: join(outside, 'secret.txt') }, context),
    ).resolves.toBe('SECRET=1\n');
    await expect(all.get('read_file')!.execute({ path: '/etc/hostname' }, context)).rejects.toThrow(
      `only works inside ${project} and ${outside}`,
    );
  });
});
