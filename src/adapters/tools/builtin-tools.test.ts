import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTempWorkspace,
  type TempWorkspace,
} from '../../../test/fixtures/tools/temp-workspace.ts';
import { ToolRegistry } from '../../loop/tool-registry.ts';
import * as tools from './index.ts';

let workspace: TempWorkspace;
beforeEach(async () => {
  workspace = await createTempWorkspace();
});
afterEach(async () => {
  await workspace.remove();
});

describe('builtinTools', () => {
  it('returns the six tools in a fixed order', () => {
    expect(tools.builtinTools().map((tool) => tool.declaration.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
      'shell',
    ]);
  });

  it('declares closed object schemas with required fields and a description for each tool', () => {
    const required = tools
      .builtinTools()
      .map((tool) => [tool.declaration.name, tool.declaration.parameters['required']]);
    expect(required).toEqual([
      ['read_file', ['path']],
      ['write_file', ['path', 'content']],
      ['edit_file', ['path', 'old_string', 'new_string']],
      ['glob', ['pattern']],
      ['grep', ['pattern']],
      ['shell', ['command']],
    ]);
    for (const tool of tools.builtinTools()) {
      expect(tool.declaration.parameters).toMatchObject({
        type: 'object',
        additionalProperties: false,
      });
      expect(tool.declaration.description?.length ?? 0).toBeGreaterThan(40);
    }
  });

  it('registers in one registry, whose validation rejects unknown and mistyped arguments', () => {
    const registry = new ToolRegistry(tools.builtinTools());
    expect(registry.validate('edit_file', { path: 'a', old_string: 'x', new_string: 'y' })).toEqual(
      { ok: true },
    );
    expect(registry.validate('read_file', { path: 'a', offset: 3 })).toEqual({
      ok: false,
      errors: "/ must NOT have additional property 'offset'",
    });
    expect(registry.validate('grep', { pattern: 1, path: 2 })).toEqual({
      ok: false,
      errors: '/pattern must be string; /path must be string',
    });
  });

  it('lets a model write, edit, find and read a file through the registry', async () => {
    const registry = new ToolRegistry(tools.builtinTools());
    const call = async (name: string, raw: string) => {
      const args = ToolRegistry.parseArguments(raw);
      expect(registry.validate(name, args)).toEqual({ ok: true });
      return registry.get(name)!.execute(args, workspace.context);
    };
    await call('write_file', '{"path":"notes/todo.md","content":"- buy milk\\n"}');
    await call('edit_file', '{"path":"notes/todo.md","old_string":"milk","new_string":"bread"}');
    await expect(call('glob', '{"pattern":"**/*.md"}')).resolves.toBe('notes/todo.md');
    await expect(call('grep', '{"pattern":"bread"}')).resolves.toBe('notes/todo.md:1:- buy bread');
    await expect(call('read_file', '{"path":"notes/todo.md"}')).resolves.toBe('- buy bread\n');
    await expect(call('shell', '{"command":"cat notes/todo.md"}')).resolves.toEqual({
      exitCode: 0,
      stdout: '- buy bread\n',
      stderr: '',
    });
    await expect(readFile(workspace.path('notes/todo.md'), 'utf8')).resolves.toBe('- buy bread\n');
  });

  it('exports exactly the public surface', () => {
    expect(Object.keys(tools).sort()).toEqual([
      'ToolError',
      'builtinTools',
      'createConfinement',
      'editFileTool',
      'globTool',
      'grepTool',
      'readFileTool',
      'realPathOf',
      'shellTool',
      'writeFileAtomically',
      'writeFileTool',
    ]);
  });
});
