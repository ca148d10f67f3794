/**
 * `hookwire` process costs (`npm run bench -- cli`), each beside a baseline in the same run,
 * timing the built `dist/bin/hookwire.js` users run (package.json's `bin`; the sources when
 * there is no build):
 * (a) `hookwire --version` (module loading and commander) beside `node -e 0`, the floor of any
 *     Node CLI (bound 3×: it must stay light);
 * (b) `hookwire hooks fire PreToolUse` with one no-op hook beside `hookwire hooks validate` on the
 *     same settings: what firing adds to loading the settings (bound 2×);
 * (c) `hookwire run` of a one-answer scripted model with no hooks beside `node -e 0` (bound 3×,
 *     issue 13), and beside `hookwire --version`: what a run adds to starting the CLI.
 * Node's module compile cache is warm in every round (the CLI enables it; the warm-up rounds
 * fill it), as on a user's machine after the first start.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compare } from './harness.ts';

const built = fileURLToPath(new URL('../dist/bin/hookwire.js', import.meta.url));
const main = existsSync(built)
  ? built
  : fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

function run(args: readonly string[], env: NodeJS.ProcessEnv, input = ''): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${args.join(' ')} exited ${code}`));
    });
    child.stdin.end(input);
  });
}

export default async function cliBenchmark(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'hookwire-cli-bench-'));
  const project = join(root, 'project');
  await mkdir(project, { recursive: true });
  const env = {
    ...process.env,
    HOOKWIRE_HOME: join(root, 'home'),
    HOOKWIRE_MANAGED_SETTINGS: join(root, 'managed.json'),
  };
  const settings = join(root, 'settings.json');
  await writeFile(
    settings,
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } }),
  );
  const script = join(root, 'model.jsonl');
  await writeFile(script, '{"blocks":[{"type":"text","text":"done"}],"finishReason":"stop"}\n');
  const payload = JSON.stringify({
    tool_name: 'shell',
    tool_input: { command: 'ls' },
    tool_call_id: 'call_1',
  });
  const options = { rounds: 12, warmupRounds: 2, unit: 'ms' } as const;
  console.log(`    timing ${main === built ? 'dist/' : 'src/ (run npm run build to time dist/)'}`);

  await compare(
    'hookwire --version vs node -e 0',
    () => run([main, '--version'], env),
    () => run(['-e', '0'], env),
    { ...options, limit: 3 },
  );
  await compare(
    'hooks fire (1 no-op hook) vs hooks validate',
    () =>
      run(
        [
          main,
          'hooks',
          'fire',
          'PreToolUse',
          '--settings',
          settings,
          '--cwd',
          project,
          '--input',
          '-',
        ],
        env,
        payload,
      ),
    () => run([main, 'hooks', 'validate', '--settings', settings, '--cwd', project], env),
    { ...options, limit: 2 },
  );
  const runOnce = () =>
    run([main, 'run', 'hi', '--model', `scripted:${script}`, '--cwd', project], env);
  await compare('run (scripted, 1 model call) vs node -e 0', runOnce, () => run(['-e', '0'], env), {
    ...options,
    limit: 3,
  });
  await compare(
    'run (scripted, 1 model call) vs hookwire --version',
    () => run([main, 'run', 'hi', '--model', `scripted:${script}`, '--cwd', project], env),
    () => run([main, '--version'], env),
    options,
  );
  await rm(root, { recursive: true, force: true });
}
