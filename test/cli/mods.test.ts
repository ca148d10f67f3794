/**
 * Claude Code mods end to end: plugin directories holding mods of our own, written against
 * Claude Code's declarations (`register(on, options)`, `($, e, next)`, Claude's tool names and
 * fields), given to `hookwire run --plugin-dir` on the scripted model. One mod per shape the
 * issue lists; every test asserts the effect (the file that survives, the command that ran
 * instead, what the model's next request holds, the log a mod wrote).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginArgs, writeMod } from './mods-support.ts';
import { callTool, createSandbox, runScripted, runToolCalls, say, writeJson } from './support.ts';

/** A guard that denies before next: `rm -rf` in a Bash command. */
const RM_GUARD = `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, ($, e, next) => {
    const command = String(e.command)
    return /\\brm\\s+-rf\\b/.test(command) ? { deny: 'rm -rf is refused by rm-guard: ' + command } : next(e)
  })
}
`;

describe('Claude Code mods in hookwire run --plugin-dir', () => {
  it('a guard that denies before next: the directory survives, the model sees the reason, other calls run', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(sandbox, 'rm-guard', RM_GUARD);
    await mkdir(join(sandbox.project, 'victim'));
    await writeFile(join(sandbox.project, 'victim', 'keep.txt'), 'keep');

    const { results, code, stderr } = await runToolCalls(
      sandbox,
      [
        ['shell', { command: 'rm -rf victim' }],
        ['shell', { command: 'echo fine > fine.txt' }],
      ],
      pluginArgs(mod),
    );

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(existsSync(join(sandbox.project, 'victim', 'keep.txt'))).toBe(true);
    expect(results[0]?.error).toContain('rm -rf is refused by rm-guard: rm -rf victim');
    expect(await readFile(join(sandbox.project, 'fine.txt'), 'utf8')).toBe('fine\n');
  });

  it('an array matcher on Edit and Write reads e.file_path: .env stays untouched', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'env-guard',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: ['Edit', 'Write'] }, ($, e, next) =>
    String(e.file_path).endsWith('.env') ? { deny: e.tool + ' of ' + e.file_path + ' is blocked' } : next(e))
}
`,
    );
    await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');

    const { results } = await runToolCalls(
      sandbox,
      [
        ['write_file', { path: '.env', content: 'SECRET=stolen\n' }],
        ['edit_file', { path: '.env', old_string: 'SECRET=1', new_string: 'SECRET=2' }],
        ['write_file', { path: 'notes.txt', content: 'fine\n' }],
      ],
      pluginArgs(mod),
    );

    expect(await readFile(join(sandbox.project, '.env'), 'utf8')).toBe('SECRET=1\n');
    // As in Claude Code, whose file tools carry absolute paths only.
    expect(results[0]?.error).toContain(`Write of ${join(sandbox.project, '.env')} is blocked`);
    expect(results[1]?.error).toContain(`Edit of ${join(sandbox.project, '.env')} is blocked`);
    expect(await readFile(join(sandbox.project, 'notes.txt'), 'utf8')).toBe('fine\n');
  });

  it('e.file_path is absolute as in Claude Code: a guard fencing a folder by its absolute prefix sees a relative write into it', async () => {
    const sandbox = await createSandbox();
    const fenced = join(sandbox.project, 'secrets');
    const mod = await writeMod(
      sandbox,
      'prefix-fence',
      `import type { Register } from 'claude-code'
const FENCED = ${JSON.stringify(fenced + '/')}
export const register: Register = (on) => {
  on('tool.call', { tool: ['Edit', 'Write', 'Read'] }, ($, e, next) =>
    String(e.file_path).startsWith(FENCED) ? { deny: 'fenced: ' + e.file_path } : next(e))
}
`,
    );
    await mkdir(fenced);
    await writeFile(join(fenced, 'key'), 'KEY=1\n');

    const { results } = await runToolCalls(
      sandbox,
      [
        ['write_file', { path: 'secrets/key', content: 'KEY=stolen\n' }],
        ['read_file', { path: './docs/../secrets/key' }],
        ['write_file', { path: 'notes.txt', content: 'fine\n' }],
      ],
      pluginArgs(mod),
    );

    expect(await readFile(join(fenced, 'key'), 'utf8')).toBe('KEY=1\n');
    expect(results[0]?.error).toContain(`fenced: ${join(fenced, 'key')}`);
    expect(results[1]?.error).toContain(`fenced: ${join(fenced, 'key')}`);
    expect(await readFile(join(sandbox.project, 'notes.txt'), 'utf8')).toBe('fine\n');
  });

  it('a rewrite through next({ ...e, command }): the rewritten command runs instead', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'rewriter',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, ($, e, next) => next({ ...e, command: 'echo rewritten > rewritten.txt' }))
}
`,
    );

    const { results } = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo original > original.txt' }]],
      pluginArgs(mod),
    );

    expect(results[0]?.error).toBeUndefined();
    expect(await readFile(join(sandbox.project, 'rewritten.txt'), 'utf8')).toBe('rewritten\n');
    expect(existsSync(join(sandbox.project, 'original.txt'))).toBe(false);
  });

  it('a result rewritten after await next(e), with context: the model sees the redaction, never the secret', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'redactor',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', async ($, e, next) => {
    const result = await next(e)
    if (typeof result.text !== 'string' || !result.text.includes('SECRET=')) return result
    return { ...result, text: result.text.replace(/SECRET=\\w+/g, 'SECRET=[redacted]'), context: ['redactor removed a secret'] }
  })
}
`,
    );
    await writeFile(join(sandbox.project, 'config.txt'), 'SECRET=hunter2\n');

    const run = await runScripted(
      sandbox,
      [callTool('c1', 'read_file', { path: 'config.txt' }), say('done')],
      { extra: pluginArgs(mod) },
    );

    expect(run.code).toBe(0);
    const second = JSON.stringify(run.requests[1]);
    expect(second).toContain('SECRET=[redacted]');
    expect(second).toContain('redactor removed a secret');
    expect(second).not.toContain('hunter2');
  });

  it('{ result } without next supplies the result: the tool never runs, the model sees it', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'answerer',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, () => ({ result: 'cached: 42 files', context: ['from the cache'] }))
}
`,
    );

    const run = await runScripted(
      sandbox,
      [callTool('c1', 'shell', { command: 'echo ran > ran.txt' }), say('done')],
      { extra: pluginArgs(mod) },
    );

    expect(run.code).toBe(0);
    expect(existsSync(join(sandbox.project, 'ran.txt'))).toBe(false);
    const second = JSON.stringify(run.requests[1]);
    expect(second).toContain('cached: 42 files');
    expect(second).toContain('from the cache');
  });

  it('a * audit log uses next.event and $.fs: every event of the run is on record', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'audit',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  const lines: string[] = []
  on('*', async ($, e, next) => {
    const result = await next(e)
    lines.push(JSON.stringify({ event: next.event, origin: next.origin.plugin }))
    if (next.event === 'turn.complete') await $.fs.write('audit.jsonl', lines.join('\\n') + '\\n')
    return result
  })
}
`,
    );

    const run = await runScripted(
      sandbox,
      [callTool('c1', 'shell', { command: 'echo hi' }), say('done')],
      { extra: pluginArgs(mod) },
    );

    expect(run.code).toBe(0);
    const events = (await readFile(join(sandbox.project, 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { event: string }).event);
    // `*` is every event, the settings-hook events (classic.*) and the permission verdict each
    // call gets (tool.check, inside tool.call's core) included; each is recorded after
    // next resolved, so an event nested in another's core is on record before it.
    expect(events).toEqual([
      'classic.SessionStart',
      'session.start',
      'classic.UserPromptSubmit',
      'prompt.submit',
      'classic.PreToolUse',
      'tool.check',
      'classic.PostToolUse',
      'tool.call',
      'classic.Stop',
      'turn.complete',
    ]);
  });

  it('a guard using $.ui.ask headless: the ask rejects; skipped as in Claude Code, denied with failClosed', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'asker',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, async ($, e, next) => {
    const answer = await $.ui.ask({ question: 'Run ' + e.command + '?' })
    return answer === 'yes' ? next(e) : { deny: 'not confirmed' }
  })
}
`,
    );

    const open = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo open > open.txt' }]],
      pluginArgs(mod),
    );
    // Claude Code's behaviour: a guard that throws is skipped, so the call runs.
    expect(await readFile(join(sandbox.project, 'open.txt'), 'utf8')).toBe('open\n');
    expect(open.results[0]?.error).toBeUndefined();

    await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), {
      pluginConfigs: { 'asker@inline': { failClosed: true } },
    });
    const closed = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo closed > closed.txt' }]],
      pluginArgs(mod),
    );
    expect(existsSync(join(sandbox.project, 'closed.txt'))).toBe(false);
    expect(closed.results[0]?.error).toContain('the plugin fails closed');
  }, 60_000);

  it('$.process.run runs an argument vector through the supervised runner, with no shell', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'runner',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, async ($) => {
    const run = await $.process.run(['printf', '%s|', 'a b', '$(touch pwned)', ';'])
    return { deny: 'exit ' + run.exitCode + ': ' + run.stdout }
  })
}
`,
    );

    const { results } = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo x > x.txt' }]],
      pluginArgs(mod),
    );
    expect(results[0]?.error).toContain('exit 0: a b|$(touch pwned)|;|');
    expect(existsSync(join(sandbox.project, 'pwned'))).toBe(false);
    expect(existsSync(join(sandbox.project, 'x.txt'))).toBe(false);
  });

  it('$.turn.abort ends the run: the call is not run, and neither is the next one', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'aborter',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, async ($, e, next) => {
    if (!String(e.command).includes('deploy')) return next(e)
    await $.turn.abort('deploys need a person')
    return { deny: 'aborted' }
  })
}
`,
    );

    const { results } = await runToolCalls(
      sandbox,
      [
        ['shell', { command: 'echo deploy > deployed.txt' }],
        ['shell', { command: 'echo after > after.txt' }],
      ],
      pluginArgs(mod),
    );
    expect(existsSync(join(sandbox.project, 'deployed.txt'))).toBe(false);
    expect(existsSync(join(sandbox.project, 'after.txt'))).toBe(false);
    expect(results[0]?.error).toContain('deploys need a person');
    expect(results).toHaveLength(1);
  });

  it('.catch answers a hook that throws', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'catcher',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, () => { throw new Error('policy file missing') })
    .catch(($, e, next) => ({ deny: 'guard failed (' + next.error.kind + '), refusing ' + e.command }))
}
`,
    );

    const { results } = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo x > x.txt' }]],
      pluginArgs(mod),
    );
    expect(existsSync(join(sandbox.project, 'x.txt'))).toBe(false);
    expect(results[0]?.error).toContain('guard failed (throw), refusing echo x > x.txt');
  });

  it('next.to is refused in the user tier, and allowed to a prependPlugins mod; tiers nest in order', async () => {
    const sandbox = await createSandbox();
    const logging = (name: string, body: string) => `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', async ($, e, next) => {
    const log = async (line: string) => {
      const prior = (await $.fs.exists('order.log')) ? await $.fs.read('order.log') : ''
      await $.fs.write('order.log', prior + line + '\\n')
    }
    await log('${name} in')
    ${body}
  })
}
`;
    const outer = await writeMod(
      sandbox,
      'outer',
      logging('outer', 'const r = await next(e); await log("outer out"); return r'),
    );
    const skipper = await writeMod(
      sandbox,
      'skipper',
      logging(
        'skipper',
        `try { return await next.to(e, 'core') } catch (error) { await log('skipper refused: ' + (error as Error).message.slice(0, 30)); return next(e) }`,
      ),
    );
    const inner = await writeMod(sandbox, 'inner', logging('inner', 'return next(e)'));
    await writeJson(sandbox.managedFile, {
      prependPlugins: ['outer@inline'],
      appendPlugins: ['inner@inline'],
    });

    await runToolCalls(
      sandbox,
      [['shell', { command: 'echo ok > ok.txt' }]],
      pluginArgs(inner, skipper, outer),
    );
    expect(await readFile(join(sandbox.project, 'ok.txt'), 'utf8')).toBe('ok\n');
    expect((await readFile(join(sandbox.project, 'order.log'), 'utf8')).trim().split('\n')).toEqual(
      [
        'outer in',
        'skipper in',
        'skipper refused: next.to is only for mods the m',
        'inner in',
        'outer out',
      ],
    );

    // Seated by the managed settings, the same mod may skip the tiers beneath it.
    await writeFile(join(sandbox.project, 'order.log'), '');
    await writeJson(sandbox.managedFile, { prependPlugins: ['skipper@inline'] });
    await runToolCalls(
      sandbox,
      [['shell', { command: 'echo again > again.txt' }]],
      pluginArgs(inner, skipper),
    );
    expect(await readFile(join(sandbox.project, 'again.txt'), 'utf8')).toBe('again\n');
    expect((await readFile(join(sandbox.project, 'order.log'), 'utf8')).trim().split('\n')).toEqual(
      ['skipper in'],
    );
  });

  it('prompt.submit adds context and rewrites the text; { drop } discards the prompt', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'prompter',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('prompt.submit', ($, e, next) => {
    if (String(e.text).includes('password')) return { drop: 'prompts with passwords are dropped' }
    return next({ ...e, text: String(e.text).toUpperCase(), context: [...(e.context ?? []), 'house rules apply'] })
  })
}
`,
    );

    const run = await runScripted(sandbox, [say('done')], {
      extra: pluginArgs(mod),
      prompt: 'fix the bug',
    });
    expect(run.code).toBe(0);
    const first = JSON.stringify(run.requests[0]);
    expect(first).toContain('FIX THE BUG');
    expect(first).not.toContain('fix the bug');
    expect(first).toContain('house rules apply');

    const dropped = await runScripted(sandbox, [say('done')], {
      extra: pluginArgs(mod),
      prompt: 'my password is x',
    });
    expect(dropped.requests).toEqual([]);
    expect(dropped.stdout + dropped.stderr).toContain('prompts with passwords are dropped');
  });

  it('a mod hookwire cannot serve is refused at load, naming every missing event and capability; nothing runs', async () => {
    const sandbox = await createSandbox();
    const ui = await writeMod(
      sandbox,
      'pane-mod',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('ui.render', ($, e, next) => next(e))
  on('tool.call', async ($, e, next) => { await $.ui.open({ pane: 'x' }); await $.agent.spawn({ prompt: 'p' }); return next(e) })
}
`,
    );
    const guard = await writeMod(sandbox, 'rm-guard', RM_GUARD);

    const refused = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo ran > ran.txt' }]],
      pluginArgs(ui, guard),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('mod pane-mod');
    expect(refused.stderr).toContain('events hookwire does not raise: ui.render');
    expect(refused.stderr).toContain(
      'capabilities hookwire does not provide: $.ui.open, $.agent.spawn',
    );
    expect(existsSync(join(sandbox.project, 'ran.txt'))).toBe(false);

    // --mods-partial: the guard loads and guards; the refused mod is named in a warning.
    await mkdir(join(sandbox.project, 'victim'));
    const partial = await runToolCalls(
      sandbox,
      [['shell', { command: 'rm -rf victim' }]],
      [...pluginArgs(ui, guard), '--mods-partial'],
    );
    expect(partial.code).toBe(0);
    expect(partial.stderr).toMatch(/warning: mod pane-mod .*not loaded \(--mods-partial\)/);
    expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
    expect(partial.results[0]?.error).toContain('rm -rf is refused by rm-guard');
  });

  it('a failClosed guard whose worker wedges (a synchronous loop) denies, and the run goes on', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'spinner',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, () => { for (;;) {} })
}
`,
    );
    await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), {
      pluginConfigs: { 'spinner@inline': { failClosed: true } },
    });

    const { results, code } = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo ran > ran.txt' }]],
      pluginArgs(mod),
    );
    expect(code).toBe(0);
    expect(existsSync(join(sandbox.project, 'ran.txt'))).toBe(false);
    expect(results[0]?.error).toContain('failed (timeout); the plugin fails closed');
  }, 40_000);
});
