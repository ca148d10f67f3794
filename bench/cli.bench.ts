/**
 * `hookwire` process costs (`npm run bench -- cli`), each beside a baseline in the same run:
 * (a) `hookwire --version` (module loading and commander) beside `node -e 0`, the floor of any
 *     Node CLI;
 * (b) `hookwire hooks fire PreToolUse` with one no-op hook beside `hookwire hooks validate` on the
 *     same settings: what firing adds to loading the settings;
 * (c) `hookwire run` of a one-answer scripted model with no hooks beside `hookwire --version`:
 *     what a run (agent, session, transcript, hook runner, tools) adds to starting the CLI.
 * Informational: no limit is set for these figures.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare } from './harness.ts';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

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

  await compare(
    'hookwire --version vs node -e 0',
    () => run([main, '--version'], env),
    () => run(['-e', '0'], env),
    options,
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
    options,
  );
  await compare(
    'run (scripted, 1 model call) vs hookwire --version',
    () => run([main, 'run', 'hi', '--model', `scripted:${script}`, '--cwd', project], env),
    () => run([main, '--version'], env),
    options,
  );
}
