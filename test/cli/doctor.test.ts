import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from './support.ts';

const hasCompiler = spawnSync('cc', ['--version'], { stdio: 'ignore' }).status === 0;

describe('hookwire doctor', () => {
  it('reports the spawn helper and the containment in force, as JSON', async () => {
    const outcome = await runCli(['doctor', '--json']);
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as { containment: Record<string, unknown> };
    expect(report.containment).toMatchObject({
      spawnHelper: hasCompiler ? 'native' : 'node',
      escapees: 'tag-and-ancestry',
      survivesHookwireDeath: true,
      subreaper: hasCompiler,
    });
  });

  it('reports the Node helper when HOOKWIRE_SPAWN_HELPER=node, in text', async () => {
    const outcome = await runCli(['doctor'], {
      env: { ...process.env, HOOKWIRE_SPAWN_HELPER: 'node' },
    });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^spawn helper: node /m);
    expect(outcome.stdout).toMatch(/^containment: tag-and-ancestry, helper outlives hookwire$/m);
  });
});
