/**
 * The command line under misuse, through the real `hookwire` process: a `--cwd` that does not
 * exist, a `scripted:` directory, a reader that closes the pipe, a 1 MiB hook message, and an
 * unsupported Node.js. Each gets one clear line (or, for the closed pipe, silence), never a
 * stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  MAIN,
  createSandbox,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
} from './support.ts';

const STACK_FRAME = /\n\s+at /;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

describe('--cwd naming a directory that does not exist', () => {
  it.each([
    ['run', (script: string) => ['run', 'hello', '--model', `scripted:${script}`]],
    ['hooks fire', () => ['hooks', 'fire', 'Stop']],
    ['hooks list', () => ['hooks', 'list']],
    ['hooks validate', () => ['hooks', 'validate']],
  ])('%s: exits 1 with one line, and creates nothing', async (_name, args) => {
    const sandbox = await createSandbox();
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [say('hi')]);
    const missing = join(sandbox.root, 'no-such-project');
    const outcome = await runCli([...args(script), '--cwd', missing], { env: sandbox.env });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      `hookwire: --cwd ${missing}: the directory ${missing} does not exist (hookwire does not create it): check the path, or create the project directory first.\n`,
    );
    expect(await exists(missing)).toBe(false);
  });

  it('a file given as --cwd is refused too', async () => {
    const sandbox = await createSandbox();
    const file = join(sandbox.root, 'a-file');
    await writeFile(file, '');
    const outcome = await runCli(['hooks', 'list', '--cwd', file], { env: sandbox.env });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      `hookwire: --cwd ${file}: ${file} is not a directory: give the project directory.\n`,
    );
  });
});

describe('--model scripted:DIR', () => {
  it('exits 1 with one line saying it is a directory', async () => {
    const sandbox = await createSandbox();
    const outcome = await runCli(
      ['run', 'hello', '--model', `scripted:${sandbox.root}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      `hookwire: The script ${sandbox.root} of --model scripted:${sandbox.root} is a directory: name the JSONL file itself, e.g. scripted:${sandbox.root}/model.jsonl\n`,
    );
  });
});

describe('stdout closed by its reader', () => {
  it('run --output-format stream-json | head -1: hookwire exits quietly (141, as on SIGPIPE), no stack trace', async () => {
    const sandbox = await createSandbox();
    // Far more output than a pipe buffers, so hookwire is still writing when head exits.
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      say('word '.repeat(100_000)),
    ]);
    const command = [
      process.execPath,
      MAIN,
      'run',
      'go',
      '--model',
      `scripted:${script}`,
      '--cwd',
      sandbox.project,
      '--output-format',
      'stream-json',
    ]
      .map((part) => `'${part}'`)
      .join(' ');
    const outcome = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const shell = spawn(
        'bash',
        ['-c', `${command} | head -1; echo "hookwire=\${PIPESTATUS[0]}" >&2`],
        {
          env: sandbox.env,
        },
      );
      let stdout = '';
      let stderr = '';
      shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      shell.on('error', reject);
      shell.on('close', () => {
        resolve({ stdout, stderr });
      });
    });
    expect(JSON.parse(outcome.stdout)).toMatchObject({ type: 'session' });
    expect(outcome.stderr).toBe('hookwire=141\n');
  });
});

describe('a 1 MiB hook message in text output', () => {
  it('is cut with a notice saying how much was cut and how to see it whole', async () => {
    const sandbox = await createSandbox();
    const hook = await writeHookScript(
      sandbox.root,
      'loud.mjs',
      `process.stdout.write(JSON.stringify({ systemMessage: 'x'.repeat(1024 * 1024 - 200) }));`,
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ UserPromptSubmit: [{ command: hook, name: 'loud' }] }),
    );
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [say('ok')]);
    const outcome = await runCli(
      ['run', 'hello', '--model', `scripted:${script}`, '--cwd', sandbox.project],
      {
        env: sandbox.env,
      },
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('ok\n');
    expect(outcome.stderr).toMatch(
      /^loud \(UserPromptSubmit\): x{4000}… \[truncated: 1044376 of 1048376 characters not shown; --output-format stream-json prints every message whole\]\n$/,
    );
  });
});

describe('an unsupported Node.js', () => {
  const OLD_NODE = '/usr/bin/node';
  const oldNodeVersion = (() => {
    const result = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' });
    return result.status === 0 ? result.stdout.trim() : undefined;
  })();
  const oldNodeMajor =
    oldNodeVersion === undefined ? undefined : Number(/^v(\d+)/.exec(oldNodeVersion)?.[1]);

  it('the CLI says Node.js 22 or newer is required, in one line, before loading anything', async () => {
    // process.versions.node reads as 20.20.2 before the entry runs, on the Node.js running the suite.
    const pretend =
      "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})";
    const result = spawnSync(process.execPath, ['--import', pretend, MAIN, '--version'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `hookwire: Node.js 22 or newer is required, but this is Node.js 20.20.2 (${process.execPath}); install Node.js 22 or newer and run hookwire with it.\n`,
    );
  });

  it.runIf(oldNodeMajor !== undefined && oldNodeMajor < 22)(
    `the entry, compiled as the build compiles it, parses and refuses on a real old Node.js (${OLD_NODE} ${oldNodeVersion ?? 'absent'})`,
    async () => {
      const directory = await mkdtemp(join(tmpdir(), 'hookwire-old-node-'));
      onTestFinished(() => rm(directory, { recursive: true, force: true }));
      const source = await readFile(MAIN, 'utf8');
      const options = JSON.parse(
        await readFile(join(MAIN, '..', '..', '..', 'tsconfig.json'), 'utf8'),
      ) as {
        compilerOptions: Record<string, unknown>;
      };
      const { options: compilerOptions } = ts.convertCompilerOptionsFromJson(
        { ...options.compilerOptions, noEmit: false },
        directory,
      );
      const emitted = ts.transpileModule(source, {
        // The build's target and import rewriting, emitted as the ES module the package declares.
        compilerOptions: { ...compilerOptions, module: ts.ModuleKind.ESNext },
        fileName: 'main.ts',
      }).outputText;
      await mkdir(join(directory, 'cli'));
      await writeFile(join(directory, 'package.json'), '{"type": "module"}');
      await writeFile(join(directory, 'cli', 'main.js'), emitted);
      const result = spawnSync(OLD_NODE, [join(directory, 'cli', 'main.js'), '--version'], {
        encoding: 'utf8',
      });
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect(result.stderr).toBe(
        `hookwire: Node.js 22 or newer is required, but this is Node.js ${oldNodeVersion?.slice(1) ?? ''} (${OLD_NODE}); install Node.js 22 or newer and run hookwire with it.\n`,
      );
      expect(result.status).toBe(1);
    },
  );
});
