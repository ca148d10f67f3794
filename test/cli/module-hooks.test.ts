/**
 * The `module` hook kind end to end: `.ts` files whose default export is an `AgentHook`, named by
 * a settings file the real `hookwire run` reads, guarding the shell calls of the scripted model;
 * the effects asserted are the files the calls would have touched.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, runShellCommands, writeJson, type Sandbox } from './support.ts';

/** A TypeScript guard (type annotations stripped by Node): denies `rm`, logs each call. */
const GUARD = `
import { appendFileSync } from 'node:fs';
interface ShellArgs { readonly command?: string }
const log: string = process.env['GUARD_LOG'] ?? '/dev/null';
export default {
  name: 'no-rm',
  onToolCall(_context: unknown, call: { toolName: string; args: ShellArgs }) {
    const command: string = call.args.command ?? '';
    appendFileSync(log, command + '\\n');
    if (/\\brm\\b/.test(command)) return { kind: 'skip', reason: 'no rm here: ' + command };
    return { kind: 'run' };
  },
};
`;

async function runShellCalls(
  sandbox: Sandbox,
  settings: unknown,
  commands: readonly string[],
  env: NodeJS.ProcessEnv = sandbox.env,
): ReturnType<typeof runShellCommands> {
  await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), settings);
  return runShellCommands(sandbox, commands, [], {
    ...env,
    GUARD_LOG: join(sandbox.root, 'guard.log'),
  });
}

const run = (sandbox: Sandbox, settings: unknown, commands: readonly string[]) =>
  runShellCalls(sandbox, settings, commands);

function moduleSettings(path: string, fields: Record<string, unknown> = {}): unknown {
  return {
    hooks: {
      PreToolUse: [{ matcher: 'shell', hooks: [{ type: 'module', path, ...fields }] }],
    },
  };
}

describe('module hooks through hookwire run', () => {
  it('a TypeScript module guard denies a shell call: the file survives, other calls run', async () => {
    const sandbox = await createSandbox();
    await mkdir(join(sandbox.project, 'hooks'), { recursive: true });
    await writeFile(join(sandbox.project, 'hooks', 'guard.ts'), GUARD);
    await writeFile(join(sandbox.project, 'precious.txt'), 'keep me');
    const outcome = await run(sandbox, moduleSettings('./hooks/guard.ts'), [
      'rm precious.txt',
      'touch made.txt',
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(existsSync(join(sandbox.project, 'precious.txt'))).toBe(true);
    expect(existsSync(join(sandbox.project, 'made.txt'))).toBe(true);
    expect(JSON.stringify(outcome.results[0])).toContain('no rm here: rm precious.txt');
  });

  it('a module that throws is a failed hook: failClosed denies, otherwise the call runs with a warning', async () => {
    const sandbox = await createSandbox();
    await writeFile(
      join(sandbox.project, 'broken.ts'),
      "export default { onToolCall(): never { throw new Error('guard bug'); } };\n",
    );
    await writeFile(join(sandbox.project, 'a.txt'), 'a');
    const closed = await run(sandbox, moduleSettings('broken.ts', { failClosed: true }), [
      'rm a.txt',
    ]);
    expect(closed.code, closed.stderr).toBe(0);
    expect(existsSync(join(sandbox.project, 'a.txt'))).toBe(true);
    const open = await run(sandbox, moduleSettings('broken.ts'), ['rm a.txt']);
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout + open.stderr).toContain('threw: guard bug');
    expect(existsSync(join(sandbox.project, 'a.txt'))).toBe(false);
  });

  it('reloads a module outside the project when its content changes, within one run', async () => {
    const sandbox = await createSandbox();
    const guard = join(sandbox.root, 'outside-guard.mjs');
    await writeFile(guard, "export default { onToolCall: () => ({ kind: 'run' }) };\n");
    const denying = join(sandbox.root, 'denying.mjs');
    await writeFile(
      denying,
      "export default { onToolCall: () => ({ kind: 'skip', reason: 'version 2 denies' }) };\n",
    );
    // The first call is allowed by version 1 and installs version 2; the second is denied by it.
    const outcome = await run(sandbox, moduleSettings(guard), [
      `cp ${JSON.stringify(denying)} ${JSON.stringify(guard)} && touch first.txt`,
      'touch second.txt',
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(existsSync(join(sandbox.project, 'first.txt'))).toBe(true);
    expect(existsSync(join(sandbox.project, 'second.txt'))).toBe(false);
  });

  it('a project module changed after it was loaded does not run (trust covers its content)', async () => {
    const sandbox = await createSandbox();
    await writeFile(
      join(sandbox.project, 'guard.mjs'),
      "export default { onToolCall: () => ({ kind: 'run' }) };\n",
    );
    const outcome = await run(sandbox, moduleSettings('guard.mjs', { failClosed: true }), [
      "echo 'export default {}' > guard.mjs && touch first.txt",
      'touch second.txt',
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(existsSync(join(sandbox.project, 'first.txt'))).toBe(true);
    // Changed since trusted: the guard fails, and it fails closed.
    expect(existsSync(join(sandbox.project, 'second.txt'))).toBe(false);
    expect(outcome.stderr + outcome.stdout).toContain('script changed since trusted: guard.mjs');
  });
});
