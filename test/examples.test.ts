import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterEach, expect, it } from 'vitest';

const run = promisify(execFile);
let home = '';
afterEach(async () => {
  if (home !== '') await rm(home, { recursive: true, force: true });
});

it('the in-process example composes its guard with a command hook and answers', async () => {
  home = await mkdtemp(join(tmpdir(), 'hookwire-example-home-'));
  const { stdout } = await run(process.execPath, ['examples/in-process.ts'], {
    cwd: join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      HOOKWIRE_HOME: home,
      HOOKWIRE_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
    },
  });
  expect(stdout).toBe(
    'tool result: reading .env files is not allowed\nanswer: I may not read .env, so I did not.\n',
  );
});

it('the AI SDK example: the settings-file guard denies, the in-process hook caps what the model sees', async () => {
  home = await mkdtemp(join(tmpdir(), 'hookwire-example-home-'));
  const { stdout } = await run(process.execPath, ['examples/ai-sdk/app.ts'], {
    cwd: join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      HOOKWIRE_HOME: home,
      HOOKWIRE_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
    },
  });
  expect(stdout).toBe(
    'commands run: ls build\n' +
      'answer: Denied: "rm -rf build" is destructive; ask the user to run it themselves. ' +
      'Listing: ls build: artifact.o artifact.o artifact… (truncated)\n',
  );
});

const repository = join(import.meta.dirname, '..');

/** The README's in-process program: the TypeScript block of its "In-process hooks" section. */
async function readmeProgram(): Promise<string> {
  const readme = await readFile(join(repository, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## In-process hooks'));
  const block = /```ts\n([\s\S]*?)```\n/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md has no ts block under "## In-process hooks"');
  return block;
}

it("the README's in-process program is examples/in-process.ts, importing the package by name", async () => {
  const example = await readFile(join(repository, 'examples', 'in-process.ts'), 'utf8');
  expect(await readmeProgram()).toBe(
    example
      .replace("from '../src/index.ts'", "from 'hookwire'")
      .replace("from '../src/testing.ts'", "from 'hookwire/testing'"),
  );
});

it("the README's in-process program type-checks as a program of its own", async () => {
  const program = await readmeProgram();
  // Checked as a file beside the examples, with the package's names mapped to its sources.
  const file = join(repository, 'examples', 'readme-in-process.ts');
  const config = ts.readConfigFile(join(repository, 'tsconfig.json'), (path) =>
    ts.sys.readFile(path),
  );
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repository);
  const compilerOptions: ts.CompilerOptions = {
    ...options,
    noEmit: true,
    paths: { hookwire: ['./src/index.ts'], 'hookwire/testing': ['./src/testing.ts'] },
    pathsBasePath: repository,
  };
  const host = ts.createCompilerHost(compilerOptions);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, program, language)
      : readSource(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const checked = ts.createProgram([file], compilerOptions, host);
  const diagnostics = ts
    .getPreEmitDiagnostics(checked)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  expect(diagnostics).toEqual([]);
  expect(checked.getSourceFile(file)?.statements.length).toBeGreaterThan(5);
  // A whole-program type-check: seconds on a quiet machine, far more on a shared one.
}, 180_000);
