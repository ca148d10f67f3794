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
      reaper: hasCompiler,
    });
  });

  it('says when the reaper is above every process, and when it is off', async () => {
    const on = await runCli(['doctor']);
    if (hasCompiler) {
      expect(on.stdout).toMatch(
        /^containment: tag-and-ancestry, subreaper, reaper above every process, helper outlives hookwire$/m,
      );
      expect(on.stdout).toContain('each process hook and each stdio MCP server run under a reaper');
    }
    const off = await runCli(['doctor', '--json'], {
      env: { ...process.env, HOOKWIRE_REAPER: 'off' },
    });
    const report = JSON.parse(off.stdout) as { containment: Record<string, unknown> };
    expect(report.containment).toMatchObject({ reaper: false, reaped: [] });
  });

  it('reports the Node helper when HOOKWIRE_SPAWN_HELPER=node, in text', async () => {
    const outcome = await runCli(['doctor'], {
      env: { ...process.env, HOOKWIRE_SPAWN_HELPER: 'node', HOOKWIRE_REAPER: 'off' },
    });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^spawn helper: node /m);
    expect(outcome.stdout).toMatch(/^containment: tag-and-ancestry, helper outlives hookwire$/m);
  });
});
