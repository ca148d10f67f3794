/**
 * `node bench/run.ts relay`: what a hook adds to a tool call inside the real Claude Code (the
 * pinned binary of `test/support/real-agents`, installed on first use), measured as users see it:
 * `claude -p` against a loopback Anthropic mock makes CALLS Bash tool calls (`true`) per run, and
 * a call's cost is the gap between consecutive model requests; a hook's added cost is the median
 * gap with it minus the median gap without it, in the same round. Rounds interleave every
 * configuration (and alternate their order), timing the built `dist/` (run `npm run build`):
 *
 * - one relayed no-op hook (`hookwire relay install --into claude --events PreToolUse`, the
 *   project's hookwire settings one no-op `module` hook) vs one `true` command hook (bound 1.5×),
 *   and vs one `node -e 0` command hook;
 * - a relayed `module` TypeScript guard vs the same guard as a Node command hook (bound 1/5);
 * - issue 29: the same `true` PreToolUse hook in `hookwire run` (`--model anthropic:… --base-url`
 *   the same mock) vs in Claude Code (bound 1/3).
 *
 * BENCH_RELAY_ROUNDS (default 8) and BENCH_RELAY_CALLS (default 24) size it: a tool call's own gap
 * is 17–25 ms in hookwire run and ~50 ms in Claude Code, so fewer rounds cannot resolve a hook's
 * 1–4 ms (5 rounds of 12 once gave 0.161 where 8 of 24 gave 0.417; decision 0031, round 5).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record, type Measured } from './harness.ts';
import { repositoryRoot } from './built.ts';
import {
  startAnthropicMock,
  type AnthropicMock,
} from '../test/support/real-agents/anthropic-mock.ts';
import { installRealAgents } from '../test/support/real-agents/install-agents.ts';
import { relayEnvironment } from '../test/support/real-agents/relay-project.ts';
import { runClaude } from '../test/support/real-agents/run-claude.ts';

const ROUNDS = Number(process.env['BENCH_RELAY_ROUNDS'] ?? 8);
const CALLS = Number(process.env['BENCH_RELAY_CALLS'] ?? 24);
const CLI = join(repositoryRoot, 'dist', 'bin', 'hookwire.js');

const GUARD_TS = `
interface Call { readonly toolName: string; readonly args: { readonly command?: string } }
export default {
  onToolCall(_context: unknown, call: Call) {
    const command = call.args.command ?? '';
    return /\\brm\\s+-rf\\s+\\//.test(command) ? { kind: 'skip', reason: 'no rm -rf /' } : { kind: 'run' };
  },
};
`;
/** The same guard as a Node command hook (Claude Code's payload on stdin). */
const GUARD_MJS = `
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const command = JSON.parse(input).tool_input?.command ?? '';
  if (/\\brm\\s+-rf\\s+\\//.test(command)) { process.stderr.write('no rm -rf /'); process.exit(2); }
});
`;

interface Config {
  readonly name: string;
  /** The project's `.claude/settings.json` hooks, or a relay install. */
  readonly claude?: readonly string[] | 'relay-noop' | 'relay-guard';
  /** Run `hookwire run` instead of Claude Code, with these PreToolUse commands. */
  readonly hookwire?: readonly string[];
}

const CONFIGS: readonly Config[] = [
  { name: 'claude: no hook', claude: [] },
  { name: 'claude: true', claude: ['true'] },
  { name: 'claude: node -e 0', claude: [`'${process.execPath}' -e 0`] },
  { name: 'claude: relayed no-op', claude: 'relay-noop' },
  { name: 'claude: relayed TS guard', claude: 'relay-guard' },
  { name: 'claude: Node guard', claude: [`'${process.execPath}' hooks/guard.mjs`] },
  { name: 'hookwire: no hook', hookwire: [] },
  { name: 'hookwire: true', hookwire: ['true'] },
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A project for one configuration. */
function makeProject(root: string, config: Config, env: Record<string, string>): string {
  const project = join(root, config.name.replace(/[^a-z0-9]+/gi, '-'));
  mkdirSync(join(project, 'hooks'), { recursive: true });
  mkdirSync(join(project, '.hookwire'), { recursive: true });
  writeFileSync(join(project, 'hooks', 'guard.ts'), GUARD_TS);
  writeFileSync(join(project, 'hooks', 'guard.mjs'), GUARD_MJS);
  writeFileSync(
    join(project, 'hooks', 'noop.ts'),
    "export default { onToolCall: () => ({ kind: 'run' }) };\n",
  );
  const commands = config.claude ?? config.hookwire ?? [];
  const group = (command: string) => ({
    matcher: config.hookwire ? 'shell' : 'Bash',
    hooks: [{ type: 'command', command }],
  });
  if (config.claude === 'relay-noop' || config.claude === 'relay-guard') {
    const module = config.claude === 'relay-noop' ? './hooks/noop.ts' : './hooks/guard.ts';
    writeFileSync(
      join(project, '.hookwire', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'shell', hooks: [{ type: 'module', path: module, failClosed: true }] },
          ],
        },
      }),
    );
    execFileSync(
      process.execPath,
      [CLI, 'relay', 'install', '--into', 'claude', '--events', 'PreToolUse', '--cwd', project],
      {
        env: { ...process.env, ...env },
      },
    );
  } else if (Array.isArray(commands) && commands.length > 0) {
    const file = config.hookwire
      ? join(project, '.hookwire', 'settings.json')
      : join(project, '.claude', 'settings.json');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: commands.map(group) } }));
  }
  return project;
}

function runHookwire(project: string, baseUrl: string, env: Record<string, string>): Promise<void> {
  return new Promise((settle, reject) => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'run',
        'Run true a few times.',
        '--model',
        'anthropic:claude-sonnet-4-6',
        '--base-url',
        baseUrl,
        '--cwd',
        project,
        '--max-model-calls',
        String(CALLS + 2),
      ],
      {
        env: { ...process.env, ...env, ANTHROPIC_API_KEY: 'sk-ant-loopback-test' },
        stdio: 'ignore',
      },
    );
    child.on('error', reject);
    child.on('close', () => {
      settle();
    });
  });
}

/** The median gap between consecutive agent calls of one run of `config`, in ms. */
async function measure(
  config: Config,
  project: string,
  mock: AnthropicMock,
  claude: string,
  root: string,
  env: Record<string, string>,
): Promise<number> {
  const tool = config.hookwire ? 'shell' : 'Bash';
  mock.script((index) =>
    index < CALLS
      ? {
          type: 'tool_use',
          id: `toolu_${index}`,
          name: tool,
          input: config.hookwire ? { command: 'true' } : { command: 'true', description: 'no-op' },
        }
      : { type: 'text', text: 'done' },
  );
  if (config.hookwire) await runHookwire(project, mock.origin, env);
  else
    await runClaude({
      claude,
      project,
      home: join(root, 'claude-home'),
      baseUrl: mock.origin,
      prompt: 'Run true a few times.',
      env,
      timeoutMs: 300_000,
      maxTurns: CALLS + 3,
    });
  const gaps = mock.times.slice(1).map((time, index) => time - (mock.times[index] ?? time));
  if (gaps.length < CALLS)
    throw new Error(
      `${config.name}: only ${gaps.length + 1} agent calls were made (expected ${CALLS + 1})`,
    );
  return median(gaps);
}

const summary = (values: readonly number[]): Measured => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: median(sorted),
    p90: sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))] ?? 0,
    samples: sorted.length,
  };
};

export default async function relayBench(): Promise<void> {
  const agents = installRealAgents();
  if (!('path' in agents.claude)) {
    console.log(`relay: skipped: ${agents.claude.skip}`);
    return;
  }
  const claude = agents.claude.path;
  const root = mkdtempSync(join(tmpdir(), 'hookwire-relay-bench-'));
  const env = relayEnvironment(root);
  const mock = await startAnthropicMock();
  const projects = new Map(CONFIGS.map((config) => [config.name, makeProject(root, config, env)]));
  const gaps = new Map<string, number[]>(CONFIGS.map((config) => [config.name, []]));
  try {
    // Round 0 warms up (and starts the relay daemons); later rounds alternate the order.
    for (let round = 0; round <= ROUNDS; round++) {
      const order = round % 2 === 0 ? CONFIGS : [...CONFIGS].reverse();
      for (const config of order) {
        const gap = await measure(config, projects.get(config.name) ?? '', mock, claude, root, env);
        if (round > 0) gaps.get(config.name)?.push(gap);
      }
      console.log(`relay: round ${round}/${ROUNDS} done`);
    }
  } finally {
    for (const project of projects.values())
      try {
        execFileSync(process.execPath, [CLI, 'daemon', 'stop', '--cwd', project], {
          env: { ...process.env, ...env },
          stdio: 'ignore',
        });
      } catch {
        // Not a relay project.
      }
    await mock.close();
    rmSync(root, { recursive: true, force: true, maxRetries: 10 });
  }
  // Added cost per round: the configuration's median gap minus the same round's no-hook gap.
  const added = (name: string, base: string): number[] =>
    (gaps.get(name) ?? []).map((gap, index) => gap - (gaps.get(base)?.[index] ?? 0));
  const claudeAdded = (name: string) => added(`claude: ${name}`, 'claude: no hook');
  const figure = (name: string, candidate: number[], baseline: number[], limit?: number): void => {
    const c = summary(candidate);
    const b = summary(baseline);
    record({
      name,
      candidate: c,
      baseline: b,
      ratio: c.median / b.median,
      unit: 'ms',
      ...(limit === undefined ? {} : { limit }),
    });
  };
  console.log(
    `relay: median gap per tool call without hooks: Claude Code ${median(gaps.get('claude: no hook') ?? []).toFixed(1)} ms, hookwire run ${median(gaps.get('hookwire: no hook') ?? []).toFixed(1)} ms`,
  );
  figure(
    'Claude Code tool call: added by one relayed no-op hook vs one `true` command hook',
    claudeAdded('relayed no-op'),
    claudeAdded('true'),
    1.5,
  );
  figure(
    'Claude Code tool call: added by one relayed no-op hook vs one `node -e 0` command hook',
    claudeAdded('relayed no-op'),
    claudeAdded('node -e 0'),
  );
  figure(
    'Claude Code tool call: added by a relayed TS module guard vs the same guard as a Node command hook',
    claudeAdded('relayed TS guard'),
    claudeAdded('Node guard'),
    0.2,
  );
  figure(
    'one no-op `true` PreToolUse hook: added in hookwire run vs in Claude Code (issue 29)',
    added('hookwire: true', 'hookwire: no hook'),
    claudeAdded('true'),
    1 / 3,
  );
}
