/**
 * The README's main job: `npm run demo`, run exactly as package.json spells it, on a copy of
 * `examples/demo` (so the test writes nothing into the repository).
 */
import { cp, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN, REPOSITORY, createSandbox, readLog, runCli } from './support.ts';

/** The words of a shell command line of the simple kind package.json scripts use (double quotes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
    words.push(match[1] ?? match[2] ?? '');
  return words;
}

describe('npm run demo', () => {
  it('answers after the guard denies rm -rf, the audit log records every tool call and the Stop hook asks for one more check', async () => {
    const sandbox = await createSandbox();
    const manifest = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
      scripts: { demo: string };
      bin: { hookwire: string };
    };
    const [node, main, ...args] = shellWords(manifest.scripts.demo);
    // The demo runs the built command users get (package.json's bin, the bundle of
    // src/cli/main.ts: scripts/bundle-cli.mjs); the test runs the same CLI from its sources.
    expect([node, main]).toEqual(['node', manifest.bin.hookwire]);
    // The demo's paths are relative to the repository root: recreate them under a scratch root.
    await cp(join(REPOSITORY, 'examples', 'demo'), join(sandbox.root, 'examples', 'demo'), {
      recursive: true,
      filter: (source) => !source.includes(join('workspace', '.hookwire')),
    });
    const workspace = join(sandbox.root, 'examples', 'demo', 'workspace');
    const script = (await readFile(join(REPOSITORY, 'examples', 'demo', 'model.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    const finalAnswer = (JSON.parse(script.at(-1)!) as { blocks: { text: string }[] }).blocks[0]!
      .text;

    const outcome = await runCli(args, { cwd: sandbox.root, env: sandbox.env });

    expect(MAIN.endsWith(join('src', 'cli', 'main.ts'))).toBe(true);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe(`${finalAnswer}\n`);
    expect(outcome.stderr).toContain(
      'one-more-check (Stop): asked the agent to re-read todo.md before it finishes',
    );
    // The text output shows the guard's denial, with its name.
    expect(outcome.stderr).toContain(
      'hookwire: PreToolUse hook "guard-shell" denied: Blocked by guard-shell: "rm -rf ./*" would delete files recursively.',
    );
    // The guard denied rm -rf: the workspace is intact.
    expect((await readdir(workspace)).sort()).toEqual(['.hookwire', 'notes.txt', 'todo.md']);
    const audit = await readLog(join(workspace, '.hookwire', 'audit.jsonl'));
    // The audit group is configured before the guard, so it sees the denied call too.
    expect(audit.map((entry) => [entry['event'], entry['tool'], entry['call']])).toEqual([
      ['PreToolUse', 'shell', 'call_1'],
      ['PostToolUse', 'shell', 'call_1'],
      ['PreToolUse', 'glob', 'call_2'],
      ['PostToolUse', 'glob', 'call_2'],
      ['PreToolUse', 'read_file', 'call_3'],
      ['PostToolUse', 'read_file', 'call_3'],
    ]);
    expect(JSON.stringify(audit[1]?.['response'])).toContain('Blocked by guard-shell');
  });
});
