/**
 * What `hookwire trace` shows beyond the hook runs, opened in real headless Chromium: a
 * subagent's model and tool calls nested under its `agent` call and counted; the model's text and
 * each tool call's arguments and result, collapsed until opened; a Stop hook's block drawn as a
 * continuation, not a denial; a failed tool call counted among the failures. And an AI SDK
 * session (`hookwire/ai-sdk` with `transcript: true`) shows its model and tool calls, its hook
 * runs in the steps they ran in.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCallAction } from '../../src/index.ts';
import { createHookwire } from '../../src/ai-sdk.ts';
import { renderTraceHtml } from '../../src/cli/telemetry/trace-html.ts';
import { traceModel } from '../../src/cli/telemetry/trace-model.ts';
import { readTranscript } from '../../src/loop/index.ts';
import { textAnswer, toolCallAnswer } from '../ai-sdk/support.ts';
import {
  callTool,
  createSandbox,
  runCli,
  say,
  scriptedRunArgs,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from '../cli/support.ts';

const CHROMIUM = '/usr/bin/chromium';

/** Denies shell commands that remove files. */
const GUARD = `
import { readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
if (/\\brm\\b/.test(payload.tool_input.command)) {
  process.stderr.write('no deleting');
  process.exit(2);
}
`;

/** Blocks the first Stop of a turn: "keep working". */
const KEEP_WORKING = `
import { readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
if (!payload.stop_hook_active)
  console.log(JSON.stringify({ decision: 'block', reason: 'keep working until the tests pass' }));
`;

let sandbox: Sandbox;
let browser: Browser;
let cliTrace: string;
let sdkTrace: string;

/** A `hookwire run` session: a guarded shell, a subagent, a failing read, a Stop that blocks once. */
async function cliSession(): Promise<string> {
  const guard = await writeHookScript(sandbox.root, 'guard.mjs', GUARD);
  const keepWorking = await writeHookScript(sandbox.root, 'keep-working.mjs', KEEP_WORKING);
  await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
    hooks: {
      PreToolUse: [
        { matcher: 'shell', hooks: [{ type: 'command', command: guard, name: 'guard' }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: keepWorking, name: 'keep-working' }] }],
    },
  });
  await mkdir(join(sandbox.project, '.hookwire', 'agents'), { recursive: true });
  await writeFile(
    join(sandbox.project, '.hookwire', 'agents', 'worker.md'),
    '---\ndescription: Runs commands\ntools: shell\n---\nYou work.\n',
  );
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    callTool('p1', 'shell', { command: 'echo parent-argument' }),
    callTool('a1', 'agent', { description: 'work', prompt: 'Work.', agent_type: 'worker' }),
    callTool('w1', 'shell', { command: 'echo child' }),
    callTool('w2', 'shell', { command: 'rm -rf build' }),
    say('worker: one refused'),
    callTool('f1', 'read_file', { path: 'missing.txt' }),
    say('first answer'),
    say('done after the tests'),
  ]);
  const run = await runCli(scriptedRunArgs(script, sandbox.project, ['--output-format', 'json']), {
    env: sandbox.env,
  });
  expect(run.code, run.stderr).toBe(0);
  const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
  const out = join(sandbox.root, 'cli.trace.html');
  const traced = await runCli(['trace', sessionId, '--cwd', sandbox.project, '--out', out], {
    env: sandbox.env,
  });
  expect(traced.code, traced.stderr).toBe(0);
  expect(traced.stdout).toContain('8 model calls');
  return out;
}

/** An AI SDK session with a transcript: a tool call under an in-process hook, then an answer. */
async function sdkSession(): Promise<string> {
  const project = join(sandbox.root, 'sdk');
  await mkdir(project, { recursive: true });
  const hw = await createHookwire({
    cwd: project,
    transcript: true,
    env: {
      HOOKWIRE_HOME: join(sandbox.root, 'sdk-home'),
      HOOKWIRE_MANAGED_SETTINGS: join(sandbox.root, 'no-managed.json'),
    },
    hooks: [{ name: 'audit', onToolCall: () => ToolCallAction.run() }],
  });
  const model = new MockLanguageModelV4({
    doGenerate: [
      toolCallAnswer('s1', 'lookup', { query: 'sdk-argument' }),
      textAnswer('sdk answer'),
    ],
  });
  const lookup = tool({
    inputSchema: jsonSchema<{ query: string }>({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    }),
    execute: async ({ query }: { query: string }) => ({ found: `${query}-result` }),
  });
  await hw.generateText({
    model,
    tools: { lookup },
    prompt: 'look it up',
    stopWhen: isStepCount(3),
  });
  const transcriptPath = hw.transcriptPath!;
  const sessionId = hw.sessionId;
  await hw.close();
  const { records } = await readTranscript(transcriptPath);
  const trace = traceModel(sessionId, records);
  expect(trace.modelCallCount).toBe(2);
  expect(trace.toolCallCount).toBe(1);
  // The hook run sits in the step of the model call that asked for the tool, not before it.
  const hooked = trace.steps.filter((step) => step.hookRuns.length > 0);
  expect(hooked.map((step) => [step.turn, step.modelCall])).toEqual([[1, 1]]);
  const out = join(sandbox.root, 'sdk.trace.html');
  await writeFile(out, renderTraceHtml(trace));
  return out;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium`);
  sandbox = await createSandbox({ removeAfterTest: false });
  cliTrace = await cliSession();
  sdkTrace = await sdkSession();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser.close();
  await rm(sandbox.root, { recursive: true, force: true });
});

async function open(file: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`file://${file}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

const chip = (page: Page, label: string) => page.locator(`[data-count="${label}"] b`).textContent();

describe('hookwire trace: calls, contents, continuations, tool failures', () => {
  it("counts the subagent's model and tool calls and nests them under its agent call", async () => {
    const { page, errors } = await open(cliTrace);
    expect(errors).toEqual([]);
    // Main agent: p1, a1, f1, two answers; the worker: w1, w2, its answer.
    expect(await chip(page, 'model calls')).toBe('8');
    expect(await chip(page, 'tool calls')).toBe('5');
    const agentRow = page.locator('[data-tool-call="a1"]');
    await expect(agentRow.count()).resolves.toBe(1);
    const subagent = page.locator('[data-subagent][data-agent-type="worker"]');
    await expect(subagent.count()).resolves.toBe(1);
    await expect(subagent.locator('.row.model').count()).resolves.toBe(3);
    await expect(subagent.locator('[data-tool-call="w1"]').count()).resolves.toBe(1);
    await expect(
      subagent.locator('[data-tool-call="w2"]').getAttribute('data-status'),
    ).resolves.toBe('skipped');
    // The subagent block follows its agent call in the same step.
    const sameStep = page.locator('section.step', { has: agentRow });
    await expect(sameStep.locator('[data-subagent]').count()).resolves.toBe(1);
    await page.close();
  });

  it('shows the arguments, the results and the model text collapsed until opened', async () => {
    const { page } = await open(cliTrace);
    const step = page.locator('section.step', { has: page.locator('[data-tool-call="p1"]') });
    const args = step.locator('details[data-part="arguments"]').first();
    await expect(args.getAttribute('open')).resolves.toBeNull();
    await expect(args.locator('pre').isVisible()).resolves.toBe(false);
    await args.locator('summary').click();
    await expect(args.locator('pre').isVisible()).resolves.toBe(true);
    await expect(args.locator('pre').textContent()).resolves.toContain('echo parent-argument');
    const result = step.locator('details[data-part="result"]').first();
    await expect(result.locator('pre').textContent()).resolves.toContain('parent-argument');
    const texts = await page.locator('details[data-part="text"] pre').allTextContents();
    expect(texts).toEqual(
      expect.arrayContaining(['first answer', 'done after the tests', 'worker: one refused']),
    );
    await page.close();
  });

  it("draws the Stop hook's block as a continuation, not as a denial", async () => {
    const { page } = await open(cliTrace);
    const stopRow = page.locator('[data-hook="keep-working"][data-decision="continue"]');
    await expect(stopRow.count()).resolves.toBe(1);
    await expect(stopRow.textContent()).resolves.toContain('continued');
    await expect(
      page.locator('[data-hook="keep-working"][data-decision="deny"]').count(),
    ).resolves.toBe(0);
    expect(await chip(page, 'continuations')).toBe('1');
    // Only the guard's refusal of `rm` is a denial.
    expect(await chip(page, 'deny')).toBe('1');
    await expect(page.locator('#problems').textContent()).resolves.not.toContain('keep-working');
    await page.close();
  });

  it('counts a failed tool call among the failures and lists it', async () => {
    const { page } = await open(cliTrace);
    expect(await chip(page, 'failures')).toBe('1');
    const listed = page.locator('[data-tool-error="f1"]');
    await expect(listed.count()).resolves.toBe(1);
    await expect(listed.textContent()).resolves.toContain('read_file');
    await page.locator('#filters button[data-filter="failures"]').click();
    await expect(
      page.locator('section.step', { has: page.locator('[data-tool-call="f1"]') }).isVisible(),
    ).resolves.toBe(true);
    await page.close();
  });

  it("shows an AI SDK session's model and tool calls, with its hook run in its step", async () => {
    const { page, errors } = await open(sdkTrace);
    expect(errors).toEqual([]);
    expect(await chip(page, 'model calls')).toBe('2');
    expect(await chip(page, 'tool calls')).toBe('1');
    const step = page.locator('section.step', { has: page.locator('[data-tool-call="s1"]') });
    await expect(step.getAttribute('data-model-call')).resolves.toBe('1');
    await expect(step.locator('[data-hook="audit"]').count()).resolves.toBe(1);
    await expect(page.locator('text=before the first model call').count()).resolves.toBe(0);
    await expect(
      step.locator('details[data-part="arguments"] pre').textContent(),
    ).resolves.toContain('sdk-argument');
    const texts = await page.locator('details[data-part="text"] pre').allTextContents();
    expect(texts).toContain('sdk answer');
    await page.close();
  });
});
