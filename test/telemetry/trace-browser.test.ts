/**
 * `hookwire trace` opened in real headless Chromium (Debian's `chromium`, driven by
 * playwright-core): every hook run of a known session is drawn with its decision, denials and
 * failures are listed and filterable, a click shows the payload and the answer, and the page
 * makes no request beyond its own file. Screenshots go to test-artifacts/ (git-ignored).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTranscript, type TranscriptRecord } from '../../src/loop/index.ts';
import { REPOSITORY, createSandbox, runCli, type Sandbox } from '../cli/support.ts';
import { runKnownSession } from './known-session.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(REPOSITORY, 'test-artifacts');

let sandbox: Sandbox;
let browser: Browser;
let htmlFile: string;
let hookRuns: Extract<TranscriptRecord, { type: 'hook-run' }>[];

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`,
    );
  sandbox = await createSandbox({ removeAfterTest: false });
  const { outcome, sessionId } = await runKnownSession(sandbox);
  expect(outcome.code).toBe(0);
  const { records } = await readTranscript(
    join(sandbox.project, '.hookwire', 'sessions', `${sessionId}.jsonl`),
  );
  hookRuns = records.flatMap((record) => (record.type === 'hook-run' ? [record] : []));
  htmlFile = join(sandbox.root, 'trace.html');
  const traced = await runCli(['trace', sessionId, '--cwd', sandbox.project, '--out', htmlFile], {
    env: sandbox.env,
  });
  expect(traced.stderr).toBe('');
  expect(traced.code).toBe(0);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  await mkdir(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser.close();
  await rm(sandbox.root, { recursive: true, force: true });
});

interface DrawnRow {
  readonly index: number;
  readonly decision: string | null;
  readonly status: string | null;
  readonly hook: string | null;
  readonly text: string | null;
  readonly visible: boolean;
}

/** Every drawn hook-run row, read through locators (the page's own attributes and text). */
async function rowsOf(page: Page): Promise<DrawnRow[]> {
  const rows = page.locator('[data-hook-run]');
  const count = await rows.count();
  return Promise.all(
    Array.from({ length: count }, async (_, position) => {
      const row = rows.nth(position);
      return {
        index: Number(await row.getAttribute('data-hook-run')),
        decision: await row.getAttribute('data-decision'),
        status: await row.getAttribute('data-status'),
        hook: await row.getAttribute('data-hook'),
        text: await row.textContent(),
        visible: await row.isVisible(),
      };
    }),
  );
}

async function open(): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`file://${htmlFile}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, requests, errors };
}

describe('hookwire trace in Chromium', () => {
  it('the known session ran every kind of decision and failure', () => {
    const seen = hookRuns.map(
      (record) => `${record.run.hook}:${record.run.decision}:${record.run.status}`,
    );
    expect(new Set(seen)).toEqual(
      new Set([
        'audit:allow:ok',
        'guard:deny:blocked',
        'redirect:rewrite:ok',
        'context:context:ok',
        'crashy:allow:warning',
        'slow-guard:deny:failed-closed',
      ]),
    );
  });

  it('draws every hook run of the session with its decision and status, and loads nothing from outside', async () => {
    const { page, requests, errors } = await open();
    const drawn = await rowsOf(page);
    expect(drawn.map((row) => row.index).sort((a, b) => a - b)).toEqual(
      hookRuns.map((_, index) => index),
    );
    for (const row of drawn) {
      const record = hookRuns[row.index]!;
      expect(row).toMatchObject({ decision: record.run.decision, status: record.run.status });
      expect(row.text).toContain(record.run.hook);
      expect(row.text).toContain(record.run.decision);
    }
    const rows = page.locator('[data-hook-run]');
    const visible = await Promise.all(
      drawn.map(async (_, index) => {
        const box = await rows.nth(index).locator('.bar').boundingBox();
        return box !== null && box.width > 0;
      }),
    );
    expect(visible.every(Boolean)).toBe(true);
    expect(errors).toEqual([]);
    expect(requests).toEqual([`file://${htmlFile}`]);
    await page.screenshot({ path: join(ARTIFACTS, 'trace.png'), fullPage: true });
    await page.close();
  });

  it('lists the denials and failures, and a click explains one with its payload and answer', async () => {
    const { page } = await open();
    const listed = await page.locator('#problems li').allTextContents();
    expect(listed).toHaveLength(
      hookRuns.filter((record) => record.run.decision === 'deny' || record.run.status !== 'ok')
        .length,
    );
    expect(listed.join('\n')).toContain(
      'PreToolUse · guard denied: rm is not allowed in this project',
    );
    expect(listed.join('\n')).toMatch(/Stop · slow-guard timed out, so it denied/);
    expect(listed.join('\n')).toMatch(/PostToolUse · crashy failed \(warning\)/);

    await page.click('#problems li:has-text("guard denied")');
    const details = page.locator('#details');
    await expect.poll(() => details.isVisible()).toBe(true);
    expect(await details.locator('[data-field="Reason"]').textContent()).toBe(
      'rm is not allowed in this project',
    );
    expect(await details.locator('[data-field="Exit code"]').textContent()).toBe('2');
    const payload = JSON.parse(
      (await details.locator('[data-part="payload"]').textContent()) ?? '',
    ) as Record<string, unknown>;
    expect(payload).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'shell',
      tool_input: { command: 'rm -rf build' },
    });
    expect(await details.locator('[data-part="stderr"]').textContent()).toBe(
      'rm is not allowed in this project',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'trace-details.png'), fullPage: false });

    await page.click('[data-decision="rewrite"]');
    const answer = JSON.parse(
      (await details.locator('[data-part="answer"]').textContent()) ?? '',
    ) as Record<string, unknown>;
    expect(answer).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { path: 'notes.txt' } },
    });
    await page.close();
  });

  it('filters to the denials, then to the failures', async () => {
    const { page } = await open();
    const shown = async () =>
      (await rowsOf(page)).filter((row) => row.visible).map((row) => row.hook);
    await page.click('button[data-filter="denials"]');
    expect((await shown()).sort()).toEqual(['guard', 'slow-guard', 'slow-guard']);
    await page.click('button[data-filter="failures"]');
    expect((await shown()).sort()).toEqual(['crashy', 'crashy', 'slow-guard', 'slow-guard']);
    await page.click('button[data-filter="all"]');
    expect(await shown()).toHaveLength(hookRuns.length);
    await page.close();
  });

  it('writes one self-contained file: inline style and script, no external reference', async () => {
    const html = await readFile(htmlFile, 'utf8');
    expect(html).not.toMatch(/<link\b|\bsrc=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain("default-src 'none'");
  });
});
