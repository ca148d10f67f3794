/**
 * A long scripted session's memory and resume (`npm run bench -- long-session`, issue 27), on the
 * built `dist/bin/hookwire.js` (run `npm run build` first), each beside a baseline in the same run:
 * (a) the peak RSS of `hookwire run` on a scripted model making 10,000 `read_file` steps, beside a
 *     bare `node -e 0`'s (bound: 300 MB, absolute; before issue 27 the scripted model kept every
 *     request, each with the whole history, and the run needed ~1 GB);
 * (b) the time to `--resume` that session (one more answer), beside a bare line reader parsing the
 *     same transcript (`readline` and `JSON.parse` in `node -e`) (bound: 2 s, absolute).
 * Peak RSS is `process.resourceUsage().maxRSS`, written at exit by a module preloaded with
 * `--import` in both processes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, record } from './harness.ts';

const built = fileURLToPath(new URL('../dist/bin/hookwire.js', import.meta.url));
const STEPS = 10_000;
const RSS_BOUND_MB = 300;
const RESUME_BOUND_MS = 2000;

const PRELOAD = `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  const file = process.env.HOOKWIRE_BENCH_RSS_FILE;
  const usage = process.resourceUsage();
  if (file) writeFileSync(file, JSON.stringify({ maxRSS: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }));
});
`;

function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${args.join(' ')} exited ${String(code)}: ${stderr}`));
    });
  });
}

/** Peak RSS in MB and CPU time in ms of `node --import PRELOAD …args`. */
async function usageOf(
  preload: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  file: string,
): Promise<{ rssMb: number; cpuMs: number }> {
  await run(['--import', preload, ...args], { ...env, HOOKWIRE_BENCH_RSS_FILE: file });
  const usage = JSON.parse(await readFile(file, 'utf8')) as { maxRSS: number; cpuMs: number };
  return { rssMb: usage.maxRSS / 1024, cpuMs: usage.cpuMs };
}

async function peakRss(
  preload: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  file: string,
): Promise<number> {
  return (await usageOf(preload, args, env, file)).rssMb;
}

const measured = (value: number) => ({ median: value, p90: value, samples: 1 });

export default async function longSessionBenchmark(): Promise<void> {
  if (!existsSync(built)) {
    console.log(`    skipped: ${built} is missing (npm run build)`);
    return;
  }
  const root = await mkdtemp(join(tmpdir(), 'hookwire-long-session-bench-'));
  try {
    const project = join(root, 'project');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'note.txt'), 'hello\n');
    const env = {
      ...process.env,
      HOOKWIRE_HOME: join(root, 'home'),
      HOOKWIRE_MANAGED_SETTINGS: join(root, 'managed.json'),
    };
    const preload = join(root, 'peak-rss.mjs');
    await writeFile(preload, PRELOAD);
    const lines: string[] = [];
    for (let step = 1; step <= STEPS; step++)
      lines.push(
        JSON.stringify({
          blocks: [
            {
              type: 'tool_call',
              id: `c${step}`,
              name: 'read_file',
              parameters: { path: 'note.txt' },
            },
          ],
          finishReason: 'tool_calls',
        }),
      );
    lines.push(JSON.stringify({ blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop' }));
    const script = join(root, 'model.jsonl');
    await writeFile(script, `${lines.join('\n')}\n`);
    const rssFile = join(root, 'rss');

    const started = performance.now();
    const runRss = await peakRss(
      preload,
      [
        built,
        'run',
        'go',
        '--model',
        `scripted:${script}`,
        '--cwd',
        project,
        '--max-model-calls',
        String(STEPS + 10),
      ],
      env,
      rssFile,
    );
    const runSeconds = (performance.now() - started) / 1000;
    const bareRss = await peakRss(preload, ['-e', '0'], env, rssFile);
    record({
      name: `run of ${STEPS} scripted steps: peak RSS vs node -e 0 (took ${runSeconds.toFixed(1)} s)`,
      candidate: measured(runRss),
      baseline: measured(bareRss),
      ratio: runRss / bareRss,
      unit: 'MB',
    });
    console.log(
      `    peak RSS ${runRss.toFixed(0)} MB (bound ${RSS_BOUND_MB} MB: ${runRss <= RSS_BOUND_MB ? 'ok' : 'OVER'})`,
    );

    const sessions = join(project, '.hookwire', 'sessions');
    const transcript = (await readdir(sessions)).find((name) => name.endsWith('.jsonl')) ?? '';
    const sessionId = transcript.slice(0, -'.jsonl'.length);
    const resumeScript = join(root, 'resume.jsonl');
    await writeFile(
      resumeScript,
      `${JSON.stringify({ blocks: [{ type: 'text', text: 'again' }], finishReason: 'stop' })}\n`,
    );
    const reader = `const rl = require('node:readline').createInterface({ input: require('node:fs').createReadStream(process.argv[1]) }); let n = 0; rl.on('line', (line) => { JSON.parse(line); n++; });`;
    const resume = await compare(
      `--resume of the ${STEPS}-step session vs a bare line reader parsing its transcript`,
      () =>
        run(
          [
            built,
            'run',
            'again',
            '--model',
            `scripted:${resumeScript}`,
            '--cwd',
            project,
            '--resume',
            sessionId,
          ],
          env,
        ),
      () => run(['-e', reader, join(sessions, transcript)], env),
      { rounds: 3, warmupRounds: 1, unit: 'ms' },
    );
    // CPU time, which the machine's other work disturbs far less than elapsed time.
    const resumeCpu = await usageOf(
      preload,
      [
        built,
        'run',
        'again',
        '--model',
        `scripted:${resumeScript}`,
        '--cwd',
        project,
        '--resume',
        sessionId,
      ],
      env,
      rssFile,
    );
    const readerCpu = await usageOf(
      preload,
      ['-e', reader, join(sessions, transcript)],
      env,
      rssFile,
    );
    record({
      name: `--resume of the ${STEPS}-step session vs the bare line reader: CPU time`,
      candidate: measured(resumeCpu.cpuMs),
      baseline: measured(readerCpu.cpuMs),
      ratio: resumeCpu.cpuMs / readerCpu.cpuMs,
      unit: 'ms',
    });
    console.log(
      `    resume ${resume.candidate.median.toFixed(0)} ms elapsed, ${resumeCpu.cpuMs.toFixed(0)} ms CPU (bound ${RESUME_BOUND_MS} ms: ${resume.candidate.median <= RESUME_BOUND_MS ? 'ok' : 'OVER'}; a loaded machine inflates the elapsed time of both)`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
