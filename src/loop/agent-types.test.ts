import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentTypesByName,
  AgentTypeError,
  GENERAL_PURPOSE_AGENT,
  loadAgentFiles,
  parseAgentFile,
  toolSelector,
} from './agent-types.ts';

describe('parseAgentFile', () => {
  it('reads the front matter and the system prompt (Claude Code layout)', () => {
    const parsed = parseAgentFile(
      [
        '---',
        'name: explorer',
        'description: "Reads the code: answers with paths"',
        'tools: read_file, grep, glob',
        'model: inherit',
        'color: blue',
        '---',
        '',
        'You explore the repository.',
        'Answer with file paths.',
      ].join('\n'),
      '/p/.hookwire/agents/explorer.md',
    );
    expect(parsed.definition).toEqual({
      name: 'explorer',
      description: 'Reads the code: answers with paths',
      prompt: 'You explore the repository.\nAnswer with file paths.',
      tools: ['read_file', 'grep', 'glob'],
      model: 'inherit',
      source: '/p/.hookwire/agents/explorer.md',
    });
    expect(parsed.ignoredKeys).toEqual(['color']);
  });

  it('takes tools as a flow list or a block list, and the name from the file', () => {
    const flow = parseAgentFile(
      '---\ndescription: d\ntools: [shell, "read_file"]\n---\nP',
      '/a/x.md',
    );
    expect(flow.definition.name).toBe('x');
    expect(flow.definition.tools).toEqual(['shell', 'read_file']);
    const block = parseAgentFile(
      '---\ndescription: d\ntools:\n  - shell\n  - grep\n---\nP',
      '/a/y.md',
    );
    expect(block.definition.tools).toEqual(['shell', 'grep']);
  });

  it('says which file and line is wrong, and how to fix it', () => {
    expect(() => parseAgentFile('no front matter', '/a/z.md')).toThrow(
      /^\/a\/z\.md:1: an agent file starts with a front matter block/,
    );
    expect(() =>
      parseAgentFile('---\ndescription: d\nthis is not yaml\n---\nP', '/a/z.md'),
    ).toThrow(/\/a\/z\.md:3: cannot read "this is not yaml"; fix: write one "key: value" per line/);
    expect(() => parseAgentFile('---\nname: z\n---\nP', '/a/z.md')).toThrow(/has no description/);
    expect(() => parseAgentFile('---\ndescription: d\n---\n  \n', '/a/z.md')).toThrow(
      /system prompt .* is empty/,
    );
    expect(() => parseAgentFile('---\ndescription: d\n', '/a/z.md')).toThrow(AgentTypeError);
  });
});

describe('loadAgentFiles and agentTypesByName', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
    root = undefined;
  });

  it('loads every .md file in name order; a missing directory has none', async () => {
    root = await mkdtemp(join(tmpdir(), 'hookwire-agents-'));
    const dir = join(root, 'agents');
    await mkdir(dir);
    await writeFile(join(dir, 'b.md'), '---\ndescription: second\n---\nB');
    await writeFile(join(dir, 'a.md'), '---\ndescription: first\n---\nA');
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    const files = await loadAgentFiles(dir);
    expect(files.map((file) => file.definition.name)).toEqual(['a', 'b']);
    expect(await loadAgentFiles(join(root, 'missing'))).toEqual([]);
  });

  it('always has general-purpose; a later definition replaces an earlier one', () => {
    const types = agentTypesByName([
      { name: 'a', description: '1', prompt: 'one' },
      { name: 'a', description: '2', prompt: 'two' },
    ]);
    expect([...types.keys()]).toEqual([GENERAL_PURPOSE_AGENT, 'a']);
    expect(types.get('a')?.prompt).toBe('two');
  });
});

describe('toolSelector', () => {
  const tools = [
    'shell',
    'read_file',
    'mcp__github__create_issue',
    'mcp__github__list_issues',
    'mcp__notes__write_note',
    'mcp__notes_archive__read',
  ];
  const select = (entries: string[]) => tools.filter(toolSelector(entries));

  it('takes exact names', () => {
    expect(select(['shell', 'mcp__notes__write_note'])).toEqual([
      'shell',
      'mcp__notes__write_note',
    ]);
    expect(select(['Shell', 'mcp__github'.toUpperCase()])).toEqual([]);
  });

  it("takes * patterns, as Claude Code does in an agent's tools", () => {
    expect(select(['read_file', 'mcp__github__*'])).toEqual([
      'read_file',
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ]);
    expect(select(['mcp__*'])).toEqual(tools.filter((name) => name.startsWith('mcp__')));
    expect(select(['mcp__github__list.*'])).toEqual([]); // regex characters are literal
  });

  it('takes mcp__SERVER for every tool of that server, and only that server', () => {
    expect(select(['mcp__notes'])).toEqual(['mcp__notes__write_note']);
    expect(select(['mcp__notes_archive'])).toEqual(['mcp__notes_archive__read']);
  });
});
