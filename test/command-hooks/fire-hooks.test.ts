import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireCommandHooks } from '../../src/hook-kinds/group/index.ts';
import { createHookProject, group, type HookProject } from './support.ts';

let project: HookProject;
beforeEach(async () => {
  project = await createHookProject();
});
afterEach(async () => {
  await project.close();
});

const toolPayload = (toolName: string, input: Record<string, unknown> = { command: 'ls' }) => ({
  tool_name: toolName,
  tool_input: input,
  tool_call_id: 'call_1',
});

async function firePreToolUse(
  hooks: Record<string, unknown>,
  toolName = 'shell',
  input?: Record<string, unknown>,
) {
  const settings = await project.settings(hooks);
  return fireCommandHooks(settings, 'PreToolUse', toolPayload(toolName, input), {
    runner: project.runner,
    projectDir: project.dir,
  });
}

describe('exit codes', () => {
  it('exit 0 with JSON allows and keeps the JSON fields', async () => {
    const command = await project.script(
      'allow.sh',
      `cat >/dev/null; echo '{"decision":"allow","systemMessage":"checked"}'`,
    );
    const result = await firePreToolUse({ PreToolUse: [group([{ command }])] });
    expect(result.decision).toBe('allow');
    expect(result.systemMessage).toBe('checked');
    expect(result.hooks).toMatchObject([{ status: 'ok', exitCode: 0, signal: null }]);
  });

  it('exit 2 denies with stderr as the reason and ignores stdout', async () => {
    const command = await project.script(
      'deny.sh',
      `cat >/dev/null; echo '{"decision":"allow"}'; echo "no shell today" >&2; exit 2`,
    );
    const result = await firePreToolUse({ PreToolUse: [group([{ command }])] });
    expect(result).toMatchObject({ decision: 'deny', reason: 'no shell today' });
    expect(result.hooks[0]).toMatchObject({ status: 'blocked', exitCode: 2 });
  });

  it('any other exit is a non-blocking warning', async () => {
    const command = await project.script('crash.sh', `echo "boom" >&2; exit 1`);
    const result = await firePreToolUse({ PreToolUse: [group([{ command }])] });
    expect(result.decision).toBe('allow');
    expect(result.hooks[0]).toMatchObject({ status: 'warning', exitCode: 1 });
    expect(result.warnings[0]).toMatch(/crashed \(exit 1\): boom/);
  });

  it('plain-text stdout is context for prompt events and a message for tool events', async () => {
    const command = await project.script(
      'text.sh',
      `cat >/dev/null; echo "remember the style guide"`,
    );
    const settings = await project.settings({
      UserPromptSubmit: [group([{ command }])],
      PreToolUse: [group([{ command }])],
    });
    const options = { runner: project.runner, projectDir: project.dir };
    const prompt = await fireCommandHooks(settings, 'UserPromptSubmit', { prompt: 'hi' }, options);
    expect(prompt).toMatchObject({
      additionalContext: 'remember the style guide',
      systemMessage: null,
    });
    const tool = await fireCommandHooks(settings, 'PreToolUse', toolPayload('shell'), options);
    expect(tool).toMatchObject({
      systemMessage: 'remember the style guide',
      additionalContext: null,
    });
  });

  it('a JSON object printed twice encoded is decoded', async () => {
    const command = await project.script(
      'twice.sh',
      `cat >/dev/null; echo '"{\\"decision\\":\\"deny\\",\\"reason\\":\\"encoded twice\\"}"'`,
    );
    const result = await firePreToolUse({ PreToolUse: [group([{ command }])] });
    expect(result).toMatchObject({ decision: 'deny', reason: 'encoded twice' });
  });

  it('stdout that is not valid JSON is a warning naming the problem, never silently ignored', async () => {
    const command = await project.script('garbage.sh', `cat >/dev/null; echo '{"decision": deny}'`);
    const result = await firePreToolUse({ PreToolUse: [group([{ command }])] });
    expect(result.decision).toBe('allow');
    expect(result.hooks[0]?.status).toBe('warning');
    expect(result.warnings[0]).toMatch(/does not decode: invalid JSON/);
  });

  it('a JSON output with a wrong shape is a warning with its JSON path', async () => {
    const command = await project.script(
      'shape.sh',
      `cat >/dev/null; echo '{"decision":"deny","hookSpecificOutput":{"llm_request":{}}}'`,
    );
    const result = await firePreToolUse({ PreToolUse: [group([{ command }])] });
    expect(result.decision).toBe('allow');
    expect(result.warnings[0]).toMatch(/hookSpecificOutput/);
  });

  it('a 50 MiB stdout flood is capped, reported as truncated, and the run goes on', async () => {
    const command = await project.script(
      'flood.sh',
      `cat >/dev/null; head -c 52428800 /dev/zero | tr '\\0' 'x'`,
    );
    const result = await firePreToolUse({ PreToolUse: [group([{ command }])] });
    expect(result.decision).toBe('allow');
    expect(result.hooks[0]).toMatchObject({ stdoutTruncated: true, status: 'ok' });
    expect(result.systemMessage?.length).toBe(1024 * 1024);
  });
});

describe('failClosed guards deny when they cannot answer, saying why', () => {
  const cases = [
    ['crashes', `exit 3`, /crashed \(exit 3\)/],
    ['times out', `sleep 30`, /timed out after 200ms/],
    ['is missing', undefined, /is missing: the command was not found/],
    ['prints output that does not decode', `echo '{nope'`, /does not decode/],
    ['prints a wrong shape', `echo '{"decision":"maybe"}'`, /does not decode/],
  ] as const;
  for (const [what, body, reason] of cases) {
    it(`a guard that ${what} denies`, async () => {
      const command =
        body === undefined
          ? `"$HOOKWIRE_PROJECT_DIR/hooks/absent.sh"`
          : await project.script('guard.sh', body);
      const result = await firePreToolUse({
        PreToolUse: [group([{ command, failClosed: true, timeout: '200ms', name: 'guard' }])],
      });
      expect(result.decision).toBe('deny');
      expect(result.reason).toMatch(reason);
      expect(result.reason).toMatch(/failClosed/);
      expect(result.hooks[0]?.status).toBe('failed-closed');
    });

    it(`an advisory hook that ${what} only warns`, async () => {
      const command =
        body === undefined
          ? `"$HOOKWIRE_PROJECT_DIR/hooks/absent.sh"`
          : await project.script('advisory.sh', body);
      const result = await firePreToolUse({
        PreToolUse: [group([{ command, timeout: '200ms', name: 'advisory' }])],
      });
      expect(result.decision).toBe('allow');
      expect(result.warnings[0]).toMatch(reason);
    });
  }
});

describe('aggregation in configuration order', () => {
  it('a slow allow configured before a fast deny denies, whatever finishes first', async () => {
    const marker = join(project.dir, 'fast-done');
    // The slow hook waits until the fast one has finished: the finishing order is fixed.
    const slow = await project.script(
      'slow.sh',
      `cat >/dev/null; while [ ! -f "${marker}" ]; do sleep 0.01; done; echo '{"decision":"allow"}'`,
    );
    const fast = await project.script(
      'fast.sh',
      `cat >/dev/null; echo "fast says no" >&2; touch "${marker}"; exit 2`,
    );
    const result = await firePreToolUse({
      PreToolUse: [
        group([
          { command: slow, name: 'slow' },
          { command: fast, name: 'fast' },
        ]),
      ],
    });
    expect(result.decision).toBe('deny');
    expect(result.reason).toBe('fast says no');
    expect(result.hooks.map((hook) => hook.name)).toEqual(['slow', 'fast']);
  });

  it('reasons of several denying hooks are joined in configuration order, not finishing order', async () => {
    const marker = join(project.dir, 'second-done');
    const first = await project.script(
      'first.sh',
      `cat >/dev/null; while [ ! -f "${marker}" ]; do sleep 0.01; done; echo '{"decision":"deny","reason":"first"}'`,
    );
    const second = await project.script(
      'second.sh',
      `cat >/dev/null; touch "${marker}"; echo '{"decision":"block","reason":"second"}'`,
    );
    const result = await firePreToolUse({
      PreToolUse: [group([{ command: first }, { command: second }])],
    });
    expect(result.reason).toBe('first\nsecond');
  });

  it('systemMessage and additionalContext join in configuration order; any continue:false stops', async () => {
    const one = await project.script(
      'one.sh',
      `cat >/dev/null; echo '{"systemMessage":"one","hookSpecificOutput":{"additionalContext":"c1"}}'`,
    );
    const two = await project.script(
      'two.sh',
      `cat >/dev/null; echo '{"systemMessage":"two","continue":false,"stopReason":"enough","hookSpecificOutput":{"additionalContext":"c2"}}'`,
    );
    const settings = await project.settings({
      UserPromptSubmit: [group([{ command: one }, { command: two }])],
    });
    const result = await fireCommandHooks(
      settings,
      'UserPromptSubmit',
      { prompt: 'go' },
      {
        runner: project.runner,
        projectDir: project.dir,
      },
    );
    expect(result).toMatchObject({
      systemMessage: 'one\ntwo',
      additionalContext: 'c1\nc2',
      continue: false,
      stopReason: 'enough',
    });
  });

  it('tool_input rewrites merge and updatedInput replaces, applied in configuration order', async () => {
    const merge = await project.script(
      'merge.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"tool_input":{"timeout":5}}}'`,
    );
    const replace = await project.script(
      'replace.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"updatedInput":{"command":"ls -la"}}}'`,
    );
    const mergeOnly = await firePreToolUse({ PreToolUse: [group([{ command: merge }])] });
    expect(mergeOnly.hookSpecificOutput).toEqual({ tool_input: { command: 'ls', timeout: 5 } });
    const both = await firePreToolUse({
      PreToolUse: [group([{ command: merge }, { command: replace }])],
    });
    expect(both.hookSpecificOutput).toEqual({ tool_input: { command: 'ls -la' } });
  });

  it('sequential hooks each see the input rewritten by the ones before', async () => {
    const first = await project.script(
      'add-flag.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"tool_input":{"command":"ls -a"}}}'`,
    );
    // The second hook echoes what it received, so its rewrite proves what it saw.
    const second = await project.script(
      'suffix.sh',
      `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s);console.log(JSON.stringify({hookSpecificOutput:{tool_input:{command:p.tool_input.command+" | head"}}}))})'`,
    );
    const result = await firePreToolUse({
      PreToolUse: [group([{ command: first }, { command: second }], { sequential: true })],
    });
    expect(result.hookSpecificOutput).toEqual({ tool_input: { command: 'ls -a | head' } });
  });

  it('BeforeToolSelection choices combine: none wins over required, allowlists intersect', async () => {
    const required = await project.script(
      'required.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"toolChoice":{"mode":"required","allowedToolNames":["glob","grep","shell"]}}}'`,
    );
    const narrow = await project.script(
      'narrow.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"toolChoice":{"mode":"auto","allowedToolNames":["grep","glob"]}}}'`,
    );
    const settings = await project.settings({
      BeforeToolSelection: [group([{ command: required }, { command: narrow }])],
    });
    const request = {
      version: 2,
      model: 'm',
      contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] }],
      tools: ['glob', 'grep', 'shell'].map((name) => ({ name, parameters: { type: 'object' } })),
    };
    const result = await fireCommandHooks(
      settings,
      'BeforeToolSelection',
      { llm_request: request },
      {
        runner: project.runner,
        projectDir: project.dir,
      },
    );
    expect(result.hookSpecificOutput).toEqual({
      toolChoice: { mode: 'required', allowedToolNames: ['glob', 'grep'] },
    });
  });
});

describe('parallel groups', () => {
  // A barrier in an execution log: each hook logs its start, then waits until all ten have
  // started before it logs its end. Hooks run one (or a few) at a time never pass it.
  it('the ten hooks of a parallel group all run at once: every start is logged before any end', async () => {
    const log = join(project.dir, 'execution.log');
    const barrier = await project.script(
      'barrier.sh',
      [
        'cat >/dev/null',
        `echo "start $1" >> '${log}'`,
        'tries=0',
        `while [ "$(grep -c '^start' '${log}')" -lt 10 ]; do`,
        '  tries=$((tries + 1)); [ "$tries" -gt 2000 ] && exit 3',
        '  sleep 0.005',
        'done',
        `echo "end $1" >> '${log}'`,
        `echo '{"decision":"allow"}'`,
      ].join('\n'),
    );
    const hooks = Array.from({ length: 10 }, (_, index) => ({
      command: `${barrier} ${index}`,
      timeout: 60,
    }));
    const result = await firePreToolUse({ PreToolUse: [group(hooks)] });
    expect(result.hooks.map((hook) => hook.status)).toEqual(Array(10).fill('ok'));
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    expect(lines.slice(0, 10).map((line) => line.split(' ')[0])).toEqual(Array(10).fill('start'));
    expect(lines.slice(10).map((line) => line.split(' ')[0])).toEqual(Array(10).fill('end'));
    expect(new Set(lines.slice(10)).size).toBe(10);
  });

  it('every hook of a parallel group gets the same large payload, exactly', async () => {
    // 3 MiB of tool input: above the size at which the runner stops routing stdin through the
    // spawn helper, so each hook gets its own direct pipe (native helper) or file (Node helper).
    const text = 'naïve ✓ '.repeat(300_000);
    const digest = await project.script(
      'digest.sh',
      `sum=$(sha256sum | cut -d' ' -f1); echo "{\\"systemMessage\\":\\"$1 $sum\\"}"`,
    );
    const hooks = Array.from({ length: 4 }, (_, index) => ({ command: `${digest} ${index}` }));
    const settings = await project.settings({ PreToolUse: [group(hooks)] });
    const payload = toolPayload('shell', { command: text });
    const inputs: (string | Uint8Array)[] = [];
    const result = await fireCommandHooks(settings, 'PreToolUse', payload, {
      runner: {
        run(options) {
          inputs.push(options.input);
          return project.runner.run(options);
        },
        close: () => project.runner.close(),
      },
      projectDir: project.dir,
    });
    // Encoded once: every hook is handed the same bytes.
    expect(inputs).toHaveLength(4);
    expect(new Set(inputs).size).toBe(1);
    expect(inputs[0]).toBeInstanceOf(Uint8Array);
    const sent = Buffer.from(inputs[0] as Uint8Array);
    expect(sent.length).toBeGreaterThan(3 * 1024 * 1024);
    const expected = createHash('sha256').update(sent).digest('hex');
    expect(result.systemMessage?.split('\n')).toEqual(
      hooks.map((_, index) => `${index} ${expected}`),
    );
    expect(JSON.parse(sent.toString('utf8'))).toMatchObject({ tool_input: { command: text } });
  });
});

describe('matching and configuration', () => {
  it('a matcher "Bash" runs for Bash and not for BashOutput', async () => {
    const command = await project.script('deny.sh', `cat >/dev/null; echo nope >&2; exit 2`);
    const hooks = { PreToolUse: [group([{ command }], { matcher: 'Bash' })] };
    expect((await firePreToolUse(hooks, 'Bash')).decision).toBe('deny');
    const other = await firePreToolUse(hooks, 'BashOutput');
    expect(other).toMatchObject({ decision: 'allow', hooks: [] });
  });

  it('the same hook defined in two layers runs once', async () => {
    const log = join(project.dir, 'runs.log');
    const command = await project.script('count.sh', `cat >/dev/null; echo run >> "${log}"`);
    const extra = join(project.dir, 'extra-settings.json');
    await writeFile(
      extra,
      JSON.stringify({ hooks: { BeforeTool: [group([{ command, timeout: 60 }])] } }),
    );
    const settings = await project.settings(
      { PreToolUse: [group([{ command, timeout: '60s' }])] },
      [extra],
    );
    const result = await fireCommandHooks(settings, 'PreToolUse', toolPayload('shell'), {
      runner: project.runner,
      projectDir: project.dir,
    });
    expect(result.hooks).toHaveLength(1);
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['run']);
  });

  it('hooks receive the base fields, the event name they were registered under, and the environment', async () => {
    const capture = join(project.dir, 'payload.json');
    const command = await project.script(
      'capture.sh',
      `cat > "${capture}"; echo "$HOOKWIRE_PROJECT_DIR|$HOOKWIRE_SESSION_ID|$PWD" > "${capture}.env"`,
    );
    const settings = await project.settings({ BeforeTool: [group([{ command }])] });
    await fireCommandHooks(
      settings,
      'BeforeTool',
      { ...toolPayload('shell'), session_id: 's-1' },
      {
        runner: project.runner,
        projectDir: project.dir,
      },
    );
    const payload = JSON.parse(await readFile(capture, 'utf8')) as Record<string, unknown>;
    expect(payload).toMatchObject({
      session_id: 's-1',
      transcript_path: '',
      cwd: project.dir,
      hook_event_name: 'BeforeTool',
      tool_name: 'shell',
      tool_input: { command: 'ls' },
      tool_call_id: 'call_1',
    });
    expect(Date.parse(String(payload['timestamp']))).not.toBeNaN();
    expect((await readFile(`${capture}.env`, 'utf8')).trim()).toBe(
      `${project.dir}|s-1|${project.dir}`,
    );
  });

  it('an unknown event or an invalid payload is an input error', async () => {
    const settings = await project.settings({});
    const options = { runner: project.runner, projectDir: project.dir };
    await expect(fireCommandHooks(settings, 'PreTooluse', {}, options)).rejects.toThrow(
      /unknown event/,
    );
    await expect(
      fireCommandHooks(settings, 'PreToolUse', { tool_name: 3 }, options),
    ).rejects.toThrow(/PreToolUse payload is invalid/);
  });
});

describe('failClosed where the event has no denial', () => {
  it('a failing BeforeToolSelection guard takes every tool away', async () => {
    const command = await project.script('broken.sh', `exit 1`);
    const settings = await project.settings({
      BeforeToolSelection: [group([{ command, failClosed: true }])],
    });
    const request = {
      version: 2,
      model: 'm',
      contents: [],
      tools: [{ name: 'shell', parameters: { type: 'object' } }],
    };
    const result = await fireCommandHooks(
      settings,
      'BeforeToolSelection',
      { llm_request: request },
      {
        runner: project.runner,
        projectDir: project.dir,
      },
    );
    expect(result.hookSpecificOutput).toEqual({ toolChoice: { mode: 'none' } });
  });

  it('a failing SessionStart guard stops the run', async () => {
    const command = await project.script('broken.sh', `exit 1`);
    const settings = await project.settings({
      SessionStart: [group([{ command, failClosed: true }])],
    });
    const result = await fireCommandHooks(
      settings,
      'SessionStart',
      { source: 'startup' },
      {
        runner: project.runner,
        projectDir: project.dir,
      },
    );
    expect(result.continue).toBe(false);
    expect(result.stopReason).toMatch(/crashed \(exit 1\).*failClosed/);
  });

  it('failClosed on an observe-only event is a configuration error naming the path', async () => {
    await expect(
      project.settings({ SessionEnd: [group([{ command: 'true', failClosed: true }])] }),
    ).rejects.toThrow(/hooks\.SessionEnd\[0\]\.hooks\[0\]\.failClosed/);
  });
});

describe('BeforeModel through hooks fire', () => {
  const request = {
    version: 2,
    model: 'm',
    contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] }],
    settings: { temperature: 1 },
  };

  it('reports the combined llm_request override in wire terms, later hooks winning per field', async () => {
    const first = await project.script(
      'first.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"llm_request":{"model":"small","settings":{"temperature":0.2,"topP":0.9}}}}'`,
    );
    const second = await project.script(
      'second.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"llm_request":{"settings":{"temperature":0}}}}'`,
    );
    const settings = await project.settings({
      BeforeModel: [group([{ command: first }, { command: second }])],
    });
    const result = await fireCommandHooks(
      settings,
      'BeforeModel',
      { llm_request: request },
      {
        runner: project.runner,
        projectDir: project.dir,
      },
    );
    expect(result.hookSpecificOutput).toEqual({
      llm_request: { model: 'small', settings: { temperature: 0, topP: 0.9 } },
    });
  });

  it('reports a synthetic llm_response, which means the model is not called', async () => {
    const answer = await project.script(
      'answer.sh',
      `cat >/dev/null; echo '{"hookSpecificOutput":{"llm_response":{"content":{"speaker":"ai","blocks":[{"type":"text","text":"cached"}]},"finishReason":"stop"}}}'`,
    );
    const settings = await project.settings({ BeforeModel: [group([{ command: answer }])] });
    const result = await fireCommandHooks(
      settings,
      'BeforeModel',
      { llm_request: request },
      {
        runner: project.runner,
        projectDir: project.dir,
      },
    );
    expect(result.hookSpecificOutput).toEqual({
      llm_response: {
        version: 2,
        content: { speaker: 'ai', blocks: [{ type: 'text', text: 'cached' }] },
        finishReason: 'stop',
      },
    });
  });
});
