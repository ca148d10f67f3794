/**
 * The mods runtime below the loop: real plugin directories, real workers, the chain's rules
 * (order, tiers, `next.to`, failures, `.catch`, `failClosed`, budgets, wedged workers, `$`
 * events without re-entry) and the load-time refusal. The same shapes through `hookwire run`
 * are in `test/cli/mods.test.ts`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { HookContext, HookReport } from '../../events/index.ts';
import { createHookContext } from '../../hooks/hook-context.ts';
import { testTempDir } from '../../../test/support/temp-dir.ts';
import { createCapabilityCore } from './mod-capabilities.ts';
import { loadMods, ModsRefusedError, NO_MODS_SETTINGS, type ModsSettings } from './load-mods.ts';
import { ENGINE_ORIGIN, ModsChain, type LoadedMod } from './mods-chain.ts';

interface PluginSpec {
  readonly name: string;
  readonly source: string;
  readonly manifest?: Record<string, unknown>;
}

async function writePlugin(dir: string, spec: PluginSpec): Promise<string> {
  const root = join(dir, spec.name);
  await mkdir(join(root, 'hooks'), { recursive: true });
  await mkdir(join(root, '.claude-plugin'), { recursive: true });
  await writeFile(
    join(root, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: spec.name, ...spec.manifest }),
  );
  await writeFile(
    join(root, 'hooks', 'hooks.json'),
    JSON.stringify({ modules: ['./register.ts'] }),
  );
  await writeFile(join(root, 'hooks', 'register.ts'), spec.source);
  return root;
}

interface Harness {
  readonly chain: ModsChain;
  readonly mods: readonly LoadedMod[];
  readonly reports: HookReport[];
  readonly context: HookContext;
  readonly project: string;
}

async function harness(
  specs: readonly PluginSpec[],
  settings: ModsSettings = NO_MODS_SETTINGS,
  budgets: { budgetMs?: number; catchBudgetMs?: number } = {},
): Promise<Harness> {
  const dir = await testTempDir('mods');
  const project = join(dir, 'project');
  await mkdir(project);
  const plugins = [];
  for (const spec of specs)
    plugins.push({ name: spec.name, root: await writePlugin(dir, spec), inline: true });
  const { mods } = await loadMods(plugins, { settings, host: { probeMs: 300 } });
  onTestFinished(async () => {
    await Promise.all(mods.map((mod) => mod.host.close()));
  });
  const reports: HookReport[] = [];
  const context = createHookContext({ report: (report) => reports.push(report) });
  const chain = new ModsChain(
    mods,
    createCapabilityCore({
      projectDir: project,
      runner: {
        run: () => Promise.reject(new Error('no runner in this test')),
        close: () => Promise.resolve(),
      },
      homeDir: join(dir, 'home'),
    }),
    {
      ...budgets,
      warn: (text) => reports.push({ level: 'warning', text }),
    },
  );
  return { chain, mods, reports, context, project };
}

const toolCall = (command: string) => ({ tool: 'Bash', tool_use_id: 'call-1', command });

function dispatch(
  h: Harness,
  event: string,
  e: unknown,
  core: (input: unknown) => Promise<unknown> = (input) => Promise.resolve({ result: 'ran', input }),
) {
  return h.chain.dispatch(event, e, ENGINE_ORIGIN, core, { context: h.context });
}

/** Appends `name` to the log through `$.fs`, so the order of hooks is read from one file. */
const LOGGING = `
const log = async ($, line) => {
  const prior = (await $.fs.exists('order.log')) ? await $.fs.read('order.log') : ''
  await $.fs.write('order.log', prior + line + '\\n')
}
`;

describe('the mods chain', () => {
  it('nests in tier order: prepend, then user, then append, each around the next', async () => {
    const hook = (name: string) => ({
      name,
      source: `${LOGGING}
export const register = (on) => {
  on('tool.call', async ($, e, next) => {
    await log($, '${name} before')
    const result = await next(e)
    await log($, '${name} after')
    return result
  })
}`,
    });
    const h = await harness([hook('user-mod'), hook('last'), hook('first')], {
      pluginConfigs: {},
      prependPlugins: ['first'],
      appendPlugins: ['last@inline'],
    });
    await dispatch(h, 'tool.call', toolCall('ls'));
    expect((await readFile(join(h.project, 'order.log'), 'utf8')).trim().split('\n')).toEqual([
      'first before',
      'user-mod before',
      'last before',
      'last after',
      'user-mod after',
      'first after',
    ]);
  });

  it('next.to from the user tier rejects, and the hook can catch it; from prepend it skips tiers', async () => {
    const h = await harness(
      [
        {
          name: 'skipper',
          source: `export const register = (on) => {
  on('tool.call', async ($, e, next) => next.to(e, 'core'))
}`,
        },
        {
          name: 'user-tries',
          source: `export const register = (on) => {
  on('tool.call', async ($, e, next) => {
    try { return await next.to(e, 'core') } catch (error) { return { deny: 'refused: ' + error.message } }
  })
}`,
        },
      ],
      { pluginConfigs: {}, prependPlugins: ['skipper'], appendPlugins: [] },
    );
    // From prepend, next.to('core') skips the user tier: core answers.
    expect(await dispatch(h, 'tool.call', toolCall('ls'))).toMatchObject({ result: 'ran' });

    const user = await harness([
      {
        name: 'user-tries',
        source: `export const register = (on) => {
  on('tool.call', async ($, e, next) => {
    try { return await next.to(e, 'core') } catch (error) { return { deny: 'refused: ' + error.message } }
  })
}`,
      },
    ]);
    const answer = await dispatch(user, 'tool.call', toolCall('ls'));
    expect(answer).toEqual({
      deny: expect.stringContaining(
        'refused: next.to is only for mods the managed settings seat',
      ) as unknown,
    });
  });

  it('a hook that throws before next is skipped (Claude Code); with failClosed it denies', async () => {
    const throwing = {
      name: 'thrower',
      source: `export const register = (on) => {
  on('tool.call', () => { throw new Error('boom') })
}`,
    };
    const open = await harness([throwing]);
    expect(await dispatch(open, 'tool.call', toolCall('ls'))).toMatchObject({ result: 'ran' });
    expect(open.reports.map((report) => report.text).join('\n')).toContain('boom');

    const closed = await harness([throwing], {
      pluginConfigs: { 'thrower@inline': { failClosed: true } },
      prependPlugins: [],
      appendPlugins: [],
    });
    expect(await dispatch(closed, 'tool.call', toolCall('ls'))).toEqual({
      deny: expect.stringContaining('fails closed') as unknown,
    });
  });

  it('a wrong shape is a failure, and .catch answers in the failed hook’s place', async () => {
    const h = await harness([
      {
        name: 'shaped',
        source: `export const register = (on) => {
  on('tool.call', () => 42).catch(($, e, next) => ({ deny: 'caught ' + next.error.kind }))
}`,
      },
    ]);
    expect(await dispatch(h, 'tool.call', toolCall('ls'))).toEqual({ deny: 'caught throw' });
  });

  it('a hook over its own-time budget fails as timeout; a wedged worker is terminated and restarted', async () => {
    const h = await harness(
      [
        {
          name: 'spinner',
          source: `let calls = 0
export const register = (on) => {
  on('tool.call', async ($, e, next) => {
    calls++
    if (e.command === 'spin') for (;;) {}
    return { deny: 'call ' + calls }
  })
}`,
        },
      ],
      { pluginConfigs: { spinner: { failClosed: true } }, prependPlugins: [], appendPlugins: [] },
      { budgetMs: 200 },
    );
    expect(await dispatch(h, 'tool.call', toolCall('spin'))).toEqual({
      deny: expect.stringContaining('failed (timeout)') as unknown,
    });
    // The worker was terminated: a fresh one loaded the module again (its counter restarted).
    await expect
      .poll(() => dispatch(h, 'tool.call', toolCall('ls')), { timeout: 10_000 })
      .toEqual({
        deny: 'call 1',
      });
  });

  it('time spent waiting in next does not count against the budget', async () => {
    const h = await harness(
      [
        {
          name: 'patient',
          source: `export const register = (on) => {
  on('tool.call', async ($, e, next) => next(e))
}`,
        },
      ],
      NO_MODS_SETTINGS,
      { budgetMs: 100 },
    );
    let release: () => void = () => undefined;
    const slowCore = () =>
      new Promise<unknown>((resolve) => {
        release = () => {
          resolve({ result: 'slow' });
        };
      });
    const answer = dispatch(h, 'tool.call', toolCall('ls'), slowCore);
    // Released only after a $-free wait far past the budget, measured by a timer of the test.
    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    expect(await answer).toEqual({ result: 'slow' });
    expect(h.reports).toEqual([]);
  });

  it('a * hook sees other mods’ $ calls as events with next.event and next.origin, never its own', async () => {
    const h = await harness([
      {
        name: 'audit',
        source: `const seen = []
export const register = (on) => {
  on('*', async ($, e, next) => {
    seen.push(next.event + ' from ' + next.origin.plugin)
    const result = await next(e)
    if (next.event === 'tool.call') await $.fs.write('audit.log', seen.join('\\n'))
    return result
  })
}`,
      },
      {
        name: 'reader',
        source: `export const register = (on) => {
  on('tool.call', async ($, e, next) => {
    await $.env.get('HOME')
    return next(e)
  })
}`,
      },
    ]);
    await dispatch(h, 'tool.call', toolCall('ls'));
    const log = await readFile(join(h.project, 'audit.log'), 'utf8');
    expect(log.split('\n')).toEqual(['tool.call from engine', 'env.get from reader']);
  });

  it('options: userConfig defaults, overridden by pluginConfigs["<name>@inline"].options', async () => {
    const h = await harness(
      [
        {
          name: 'configured',
          manifest: {
            userConfig: {
              word: { type: 'string', default: 'default-word' },
              other: { type: 'string', default: 'kept' },
            },
          },
          source: `export const register = (on, options) => {
  on('tool.call', () => ({ deny: options.word + '/' + options.other }))
}`,
        },
      ],
      {
        pluginConfigs: { 'configured@inline': { options: { word: 'set' } } },
        prependPlugins: [],
        appendPlugins: [],
      },
    );
    expect(await dispatch(h, 'tool.call', toolCall('ls'))).toEqual({ deny: 'set/kept' });
  });

  it('$.fs stays inside the project and the plugin directory', async () => {
    const h = await harness([
      {
        name: 'escaper',
        source: `export const register = (on) => {
  on('tool.call', async ($) => {
    try { await $.fs.read('/etc/hostname'); return { deny: 'read it' } }
    catch (error) { return { deny: error.message } }
  })
}`,
      },
    ]);
    expect(await dispatch(h, 'tool.call', toolCall('ls'))).toEqual({
      deny: expect.stringContaining('outside the project and the plugin') as unknown,
    });
  });

  it('a mod has no Node: no timers, no process, and importing node: modules fails its load', async () => {
    const h = await harness([
      {
        name: 'globals',
        source: `export const register = (on) => {
  on('tool.call', () => ({ deny: [typeof setTimeout, typeof process, typeof fetch, typeof URL].join(',') }))
}`,
      },
    ]);
    expect(await dispatch(h, 'tool.call', toolCall('ls'))).toEqual({
      deny: 'undefined,undefined,undefined,function',
    });
    const dir = await testTempDir('mods-node');
    const root = await writePlugin(dir, {
      name: 'node-user',
      source: `import { readFileSync } from 'node:fs'
export const register = (on) => { on('tool.call', () => ({ deny: String(readFileSync) })) }`,
    });
    await expect(
      loadMods([{ name: 'node-user', root, inline: true }], { settings: NO_MODS_SETTINGS }),
    ).rejects.toThrow(/imports "node:fs": a mod imports only its own plugin's files/);
  });
});

describe('loading mods', () => {
  it('refuses a mod that needs events or capabilities hookwire lacks, naming each, unless partial', async () => {
    const dir = await testTempDir('mods-refuse');
    const root = await writePlugin(dir, {
      name: 'ui-mod',
      source: `export const register = (on) => {
  on('ui.render', ($, e, next) => next(e))
  on('config.set', async ($, e, next) => { await $.ui.open({}); await $.command.register({ name: 'x' }); return next(e) })
  on('tool.call', async ($, e, next) => { await $.ui.log('fine'); return next(e) })
}`,
    });
    const good = await writePlugin(dir, {
      name: 'good',
      source: `export const register = (on) => { on('tool.call', ($, e, next) => next(e)) }`,
    });
    const plugins = [
      { name: 'ui-mod', root, inline: true },
      { name: 'good', root: good, inline: true },
    ];
    const refusal = await loadMods(plugins, { settings: NO_MODS_SETTINGS }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ModsRefusedError);
    const message = (refusal as Error).message;
    expect(message).toContain('events hookwire does not raise: ui.render, config.set');
    expect(message).toContain('capabilities hookwire does not provide: $.ui.open');
    // Served headless, as under claude -p (decision 0037): not named.
    expect(message).not.toContain('$.ui.log');
    expect(message).not.toContain('$.command.register');

    const partial = await loadMods(plugins, { settings: NO_MODS_SETTINGS, partial: true });
    onTestFinished(async () => {
      await Promise.all(partial.mods.map((mod) => mod.host.close()));
    });
    expect(partial.mods.map((mod) => mod.name)).toEqual(['good']);
    expect(partial.warnings).toEqual([
      expect.stringMatching(/^mod ui-mod .*not loaded \(--mods-partial\)$/),
    ]);
  });

  it('registering one event twice without a matcher fails the load', async () => {
    const dir = await testTempDir('mods-twice');
    const root = await writePlugin(dir, {
      name: 'twice',
      source: `export const register = (on) => {
  on('tool.call', ($, e, next) => next(e))
  on('tool.call', ($, e, next) => next(e))
}`,
    });
    await expect(
      loadMods([{ name: 'twice', root, inline: true }], { settings: NO_MODS_SETTINGS }),
    ).rejects.toThrow(/registered twice without a matcher/);
  });
});
