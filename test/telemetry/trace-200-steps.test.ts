/**
 * `hookwire trace` of a 200-step session in real headless Chromium ("readable at a glance for a
 * 200-step session"): the real loop runs 200 model calls with a tool call each, guarded by an
 * in-process hook that denies every tenth call; the CLI renders the trace; the page draws every
 * hook run, lists every denial first, stays one self-contained file of bounded size, becomes
 * ready quickly and needs no horizontal scrolling at a laptop's width.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HookStack } from '../../src/hooks/stack/hook-stack.ts';
import { ToolCallAction, type AgentHook } from '../../src/index.ts';
import { createAgent, readTranscript, ToolRegistry } from '../../src/loop/index.ts';
import { createScriptedModel, type ScriptedTurn } from '../../src/testing.ts';
import { REPOSITORY, createSandbox, runCli } from '../cli/support.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(REPOSITORY, 'test-artifacts');
const STEPS = 200;

describe('hookwire trace of a 200-step session in Chromium', () => {
  it('draws all 200 steps and every hook run, denials listed, in one bounded file, quickly', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`).toBe(true);
    const sandbox = await createSandbox();
    await mkdir(sandbox.project, { recursive: true });
    const script: ScriptedTurn[] = [];
    for (let index = 0; index < STEPS - 1; index++)
      script.push({
        blocks: [
          { type: 'text', text: `step ${index}` },
          { type: 'tool_call', id: `call-${index}`, name: 'echo', parameters: { n: index } },
        ],
        finishReason: 'tool_calls',
        usage: { promptTokens: 100, completionTokens: 10 },
      });
    script.push({ blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop' });
    const guard: AgentHook = {
      name: 'every-tenth',
      onToolCall: (_context, event) =>
        (event.args as { n: number }).n % 10 === 0
          ? ToolCallAction.skip('every tenth call is refused')
          : ToolCallAction.run(),
    };
    const agent = createAgent({
      model: createScriptedModel(script),
      tools: new ToolRegistry([
        {
          declaration: { name: 'echo', parameters: { type: 'object' } },
          execute: async (args) => args,
        },
      ]),
      hooks: new HookStack([guard]),
      cwd: sandbox.project,
      maxModelCalls: STEPS,
    });
    const session = await agent.openSession();
    const result = await session.run('work through it').result;
    expect(result.status).toBe('completed');
    await session.close('exit');
    const { records } = await readTranscript(session.transcriptPath);
    const hookRuns = records.filter((record) => record.type === 'hook-run');
    expect(hookRuns).toHaveLength(STEPS - 1);
    // Calls 0, 10, …, 190 are refused.
    const denials = 20;

    const htmlFile = join(sandbox.root, 'trace.html');
    const traced = await runCli(
      ['trace', session.sessionId, '--cwd', sandbox.project, '--out', htmlFile],
      { env: sandbox.env },
    );
    expect(traced.stderr).toBe('');
    expect(traced.code).toBe(0);
    // One file, bounded: well under a few kilobytes per step.
    expect((await stat(htmlFile)).size).toBeLessThan(3_000_000);

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`file://${htmlFile}`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.locator('[data-hook-run]').count()).toBe(hookRuns.length);
      expect(await page.locator('[data-hook-run][data-decision="deny"]').count()).toBe(denials);
      expect(await page.locator('#problems li').count()).toBe(denials);
      // At a glance: the page is as wide as the window (the timeline scales, it does not scroll).
      // (An expression string: the page's DOM is not in this suite's type library.)
      const widths = await page.evaluate<{ scroll: number; client: number }>(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      );
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      // A click on a denial answers at once: the details are shown by the click's own handler,
      // so they are visible as soon as the click returns (no wait, no clock).
      await page.click('#problems li >> nth=0');
      expect(await page.locator('#details').isVisible()).toBe(true);
      expect(await page.locator('#details [data-field="Reason"]').textContent()).toBe(
        'every tenth call is refused',
      );
      expect(errors).toEqual([]);
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'trace-200-steps.png'), fullPage: false });
    } finally {
      await browser.close();
      await rm(htmlFile, { force: true });
    }
  }, 120_000);
});
