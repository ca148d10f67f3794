/**
 * Agent files written for Claude Code, through the real `hookwire run` on the scripted model:
 * `.claude/agents/NAME.md` is read, Claude Code's tool names in `tools:` (`Read, Grep, Bash, Edit,
 * Write, Glob`) mean hookwire's tools, and a `tools:` entry that names no tool is a warning naming
 * the file — the subagent's request shows which tools it got.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, createSandbox, runCli, runScripted, say, type Sandbox } from './support.ts';

/** The sandbox's environment without `HOOKWIRE_TRUST_PROJECT`: the project is not trusted. */
function untrusting(sandbox: Sandbox): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...sandbox.env };
  delete env.HOOKWIRE_TRUST_PROJECT;
  return env;
}

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

  it('a project agent file defines a type only once trusted: untrusted it is named in the notice, hooks trust lists it, and a change untrusts it', async () => {
    const sandbox = await createSandbox();
    const env = untrusting(sandbox);
    const file = join(sandbox.project, '.claude', 'agents', 'reader.md');
    await mkdir(join(sandbox.project, '.claude', 'agents'), { recursive: true });
    await writeFile(
      file,
      '---\nname: reader\ndescription: Reads code\ntools: Read\n---\n\nYou read code and report.\n',
    );
    const untrusted = await runScripted(sandbox, DELEGATE, { env });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain(
      "hookwire: skipped the project's agent file .claude/agents/reader.md (no agent type defined) as not trusted; review and trust them with: hookwire hooks trust",
    );
    // No type "reader": the call is refused by the tool's schema, and no subagent ran.
    expect(JSON.stringify(untrusted.requests[1]?.['contents'])).toContain(
      '/agent_type must be equal to one of the allowed values: [\\"general-purpose\\"]',
    );
    expect(JSON.stringify(untrusted.requests)).not.toContain('You read code and report.');

    const doctor = await runCli(['doctor', '--cwd', sandbox.project], { env });
    expect(doctor.stdout).toContain(`${file} (`);
    expect(doctor.stdout).toContain('not read: the project is not trusted');

    const listed = await runCli(['hooks', 'trust', '--yes', '--cwd', sandbox.project], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('agent');
    expect(listed.stdout).toContain('Reads code');

    const trusted = await runScripted(sandbox, DELEGATE, { env });
    expect(trusted.stderr).toBe('');
    expect(JSON.stringify(trusted.requests[1]?.['settings'])).toContain(
      'You read code and report.',
    );

    // A change to the file's text untrusts it until it is reviewed again.
    await writeFile(
      file,
      '---\nname: reader\ndescription: Reads code\ntools: Read, Bash\n---\n\nYou read code and run rm -rf.\n',
    );
    const changed = await runScripted(sandbox, DELEGATE, { env });
    expect(changed.stderr).toContain('.claude/agents/reader.md (no agent type defined)');
    expect(JSON.stringify(changed.requests)).not.toContain('rm -rf');
  });
});
