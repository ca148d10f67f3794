/**
 * Claude Code mods in the loop (`node bench/run.ts mods`, issue 34), from the built `dist/`:
 * 20-step sessions on the scripted model, each step one `echo` tool call, guarded by
 *
 * - a no-op mod guard on `tool.call` (`($, e, next) => next(e)`: a worker-thread round trip for
 *   the hook, another for its `next`, and the onion's wait across the tool for its result),
 * - the same no-op as an in-process `AgentHook` function hook (`onToolCall` answering `run`),
 * - the same no-op as a Node command hook on PreToolUse (`node noop.mjs`, a process per call).
 *
 * Figures are per run (19 tool calls); each comparison is interleaved in the same rounds. The
 * added cost per call is printed from the medians against an unhooked run. Bound: the mod guard
 * costs at most 1/5 of the Node command hook (ratio ≤ 0.2).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';
import { preparedRuns, STEPS, toolStepTurns } from './tool-step-fixture.ts';
import type * as RootModule from '../src/index.ts';

const { HookStack, ToolCallAction, openHookSession } = await load<typeof RootModule>('index');

const ROUNDS = Number(process.env['HOOKWIRE_BENCH_ROUNDS'] ?? 10);
const WARMUP = 3;
/** Runs each variant needs: a session per run, opened beforehand. */
const RUNS = (ROUNDS + WARMUP) * 2;

const NOOP_MOD = `export const register = (on) => {
  on('tool.call', ($, e, next) => next(e))
}
`;

export default async function modsBenchmark(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'hookwire-bench-mods-'));
  const project = join(root, 'project');
  const plugin = join(root, 'noop-mod');
  await mkdir(join(plugin, '.claude-plugin'), { recursive: true });
  await mkdir(join(plugin, 'hooks'), { recursive: true });
  await mkdir(project, { recursive: true });
  await writeFile(join(plugin, '.claude-plugin', 'plugin.json'), '{"name":"noop-mod"}');
  await writeFile(join(plugin, 'hooks', 'hooks.json'), '{"modules":["./register.js"]}');
  await writeFile(join(plugin, 'hooks', 'register.js'), NOOP_MOD);
  await writeFile(
    join(root, 'noop.mjs'),
    'process.stdin.resume(); process.stdin.on("end", () => {});\n',
  );
  const settingsFile = join(root, 'node-hook.json');
  await writeFile(
    settingsFile,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: `"${process.execPath}" "${join(root, 'noop.mjs')}"` },
            ],
          },
        ],
      },
    }),
  );
  const env = {
    HOOKWIRE_HOME: join(root, 'home'),
    HOOKWIRE_MANAGED_SETTINGS: join(root, 'no-managed.json'),
  };
  const mods = await openHookSession({ projectDir: project, pluginDirs: [plugin], env });
  const node = await openHookSession({ projectDir: project, settingsFiles: [settingsFile], env });
  const functionHook = new HookStack([
    {
      name: 'noop',
      observes: (kind) => kind === 'toolCall',
      onToolCall: () => ToolCallAction.run(),
    },
  ]);
  const script = toolStepTurns(0);
  const variants = {
    mods: await preparedRuns(project, script, RUNS, { hooks: mods.stack }),
    function: await preparedRuns(project, script, RUNS, { hooks: functionHook }),
    node: await preparedRuns(project, script, ROUNDS + WARMUP, { hooks: node.stack }),
    none: await preparedRuns(project, script, ROUNDS + WARMUP),
  };
  const calls = STEPS - 1;
  console.log(
    `    ${timing()}; ${String(calls)} tool calls per run, ${String(ROUNDS)} rounds (under load)`,
  );
  try {
    const inProcess = await compare(
      'a run with a no-op mod guard on tool.call vs the same no-op as an in-process function hook',
      variants.mods.run,
      variants.function.run,
      { rounds: ROUNDS, warmupRounds: WARMUP, unit: 'ms' },
    );
    const unhooked = await compare(
      'a run with a no-op in-process function hook vs no hook',
      variants.function.run,
      variants.none.run,
      { rounds: ROUNDS, warmupRounds: WARMUP, unit: 'ms' },
    );
    const command = await compare(
      'a run with a no-op mod guard on tool.call vs the same no-op as a Node command hook (bound 0.2x)',
      variants.mods.run,
      variants.node.run,
      { rounds: ROUNDS, warmupRounds: WARMUP, unit: 'ms', limit: 0.2 },
    );
    const perCall = (ms: number): string => `${((ms * 1000) / calls).toFixed(0)} µs`;
    const none = unhooked.baseline.median;
    console.log(
      `    added per tool call over an unhooked run: mod guard ${perCall(inProcess.candidate.median - none)}, function hook ${perCall(unhooked.candidate.median - none)}, Node command hook ${perCall(command.baseline.median - none)}`,
    );
  } finally {
    await Promise.all(Object.values(variants).map((variant) => variant.close()));
    await mods.close();
    await node.close();
    await rm(root, { recursive: true, force: true });
  }
}
