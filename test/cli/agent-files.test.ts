/**
 * Agent files written for Claude Code, through the real `hookwire run` on the scripted model:
 * `.claude/agents/NAME.md` is read, Claude Code's tool names in `tools:` (`Read, Grep, Bash, Edit,
 * Write, Glob`) mean hookwire's tools, and a `tools:` entry that names no tool is a warning naming
 * the file — the subagent's request shows which tools it got.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, createSandbox, runScripted, say } from './support.ts';

const DELEGATE = [
  callTool('a1', 'agent', { description: 'look', prompt: 'Look around.', agent_type: 'reader' }),
  say('Nothing to report.'),
  say('The reader found nothing.'),
];

function toolNames(request: Record<string, unknown> | undefined): string[] {
  return ((request?.['tools'] as { name: string }[] | undefined) ?? []).map((tool) => tool.name);
}

describe('agent files in Claude Code’s words', () => {
  it('.claude/agents/NAME.md is read, and tools: Read, Grep gives the subagent read_file and grep', async () => {
    const sandbox = await createSandbox();
    await mkdir(join(sandbox.project, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(sandbox.project, '.claude', 'agents', 'reader.md'),
      '---\nname: reader\ndescription: Reads code\ntools: Read, Grep\n---\n\nYou read code and report.\n',
    );
    const outcome = await runScripted(sandbox, DELEGATE);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('The reader found nothing.\n');
    // The subagent's request: its own prompt and exactly the two tools.
    const child = outcome.requests[1];
    expect(JSON.stringify(child?.['settings'])).toContain('You read code and report.');
    expect(toolNames(child)).toEqual(['read_file', 'grep']);
  });

  it('maps Bash, Edit, Write, Glob in a .hookwire/agents file too; an unknown name and a Claude Code tool hookwire lacks are warnings naming the file', async () => {
    const sandbox = await createSandbox();
    const file = join(sandbox.project, '.hookwire', 'agents', 'reader.md');
    await mkdir(join(sandbox.project, '.hookwire', 'agents'), { recursive: true });
    await writeFile(
      file,
      '---\nname: reader\ndescription: Edits code\ntools: Bash, Edit, Write, Glob, Frobnicate, WebFetch\n---\n\nYou edit code.\n',
    );
    const outcome = await runScripted(sandbox, DELEGATE);
    expect(outcome.code).toBe(0);
    expect(toolNames(outcome.requests[1])).toEqual(['write_file', 'edit_file', 'glob', 'shell']);
    const warnings = outcome.stderr.split('\n').filter((line) => line !== '');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(
      `hookwire: ${file}: tools: "Frobnicate" names no tool, so the subagent does not get it; the tools are shell, read_file, write_file, edit_file, glob, grep, agent`,
    );
    expect(warnings[1]).toContain(
      `hookwire: ${file}: tools: "WebFetch" is a Claude Code tool hookwire does not have`,
    );
  });

  it('a Claude Code model alias is ignored with a warning, and a malformed Claude Code file is skipped with one', async () => {
    const sandbox = await createSandbox();
    const directory = join(sandbox.project, '.claude', 'agents');
    await mkdir(directory, { recursive: true });
    await writeFile(
      join(directory, 'reader.md'),
      '---\nname: reader\ndescription: Reads code\ntools: Read\nmodel: sonnet\n---\n\nYou read code.\n',
    );
    await writeFile(join(directory, 'broken.md'), 'no front matter here\n');
    const outcome = await runScripted(sandbox, DELEGATE);
    expect(outcome.code).toBe(0);
    expect(toolNames(outcome.requests[1])).toEqual(['read_file']);
    expect(outcome.stderr).toContain(
      `${join(directory, 'reader.md')}: model "sonnet" is a Claude Code alias`,
    );
    expect(outcome.stderr).toContain(`${join(directory, 'broken.md')}:1:`);
    expect(outcome.stderr).toContain('(this Claude Code agent file is skipped)');
  });

  it('--no-dialects does not read .claude/agents', async () => {
    const sandbox = await createSandbox();
    await mkdir(join(sandbox.project, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(sandbox.project, '.claude', 'agents', 'reader.md'),
      '---\nname: reader\ndescription: Reads code\ntools: Read\n---\n\nYou read code.\n',
    );
    const outcome = await runScripted(sandbox, DELEGATE, { extra: ['--no-dialects'] });
    // The agent type is unknown: the call's result says so, and the run goes on.
    expect(JSON.stringify(outcome.requests[1]?.['contents'])).toContain(
      '/agent_type must be equal to one of the allowed values: [\\"general-purpose\\"]',
    );
  });
});
