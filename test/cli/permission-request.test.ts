/**
 * The `PermissionRequest` event through the real CLI (`hookwire run` with a scripted model and
 * `--permission-mode default`): a settings-file command hook allows one asked call, denies another
 * (JSON `decision` and exit 2) and rewrites a third (`updatedInput`), with effects on real files;
 * without a deciding hook a headless run still denies and fires a `permission_prompt` Notification.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSandbox,
  readLog,
  runCli,
  settingsWith,
  writeHookScript,
  writeJson,
  runToolCalls,
  LOGGER_HOOK,
  type Sandbox,
} from './support.ts';

/** Every call of these tests runs under `--permission-mode default`. */
const runTools = (sandbox: Sandbox, calls: readonly [string, unknown][]) =>
  runToolCalls(sandbox, calls, ['--permission-mode', 'default']);

/** Decides by the asked path: allow, deny (JSON), deny (exit 2), rewrite; logs every payload. */
const DECIDER_HOOK = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(payload) + '\\n');
const path = payload.tool_input.path;
const answer = (decision) =>
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }));
if (path === 'allowed.txt') answer({ behavior: 'allow' });
else if (path === 'denied.txt') answer({ behavior: 'deny', message: 'denied.txt is off limits' });
else if (path === 'exit2.txt') { process.stderr.write('exit 2 says no'); process.exit(2); }
else if (path === 'rewrite-me.txt')
  answer({ behavior: 'allow', updatedInput: { path: 'rewritten/out.txt', content: 'rewritten by the hook' } });
else if (path === 'into-denied.txt')
  answer({ behavior: 'allow', updatedInput: { path: 'secret/key', content: 'x' } });
`;

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('PermissionRequest command hooks (end to end)', () => {
  it('allow writes, deny and exit 2 do not, updatedInput writes where the rewrite says, a rewrite into a denied path is refused', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'requests.log');
    const decider = await writeHookScript(sandbox.project, 'decide.mjs', DECIDER_HOOK, [log]);
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      permissions: { ask: ['write_file'], deny: ['write_file(secret/**)'] },
      ...(settingsWith(
        { PermissionRequest: [decider] },
        { PermissionRequest: { matcher: 'write_file' } },
      ) as object),
    });
    const { results, stderr } = await runTools(sandbox, [
      ['write_file', { path: 'allowed.txt', content: 'allowed' }],
      ['write_file', { path: 'denied.txt', content: 'x' }],
      ['write_file', { path: 'exit2.txt', content: 'x' }],
      ['write_file', { path: 'rewrite-me.txt', content: 'original' }],
      ['write_file', { path: 'into-denied.txt', content: 'x' }],
      ['glob', { pattern: '*' }],
    ]);
    expect(
      results.map((result) => result.error),
      stderr,
    ).toEqual([
      undefined,
      'Permission denied: denied.txt is off limits',
      'Permission denied: exit 2 says no',
      undefined,
      expect.stringContaining('write_file(secret/**)'),
      undefined,
    ]);
    const project = sandbox.project;
    expect(await readFile(join(project, 'allowed.txt'), 'utf8')).toBe('allowed');
    expect(await exists(join(project, 'denied.txt'))).toBe(false);
    expect(await exists(join(project, 'exit2.txt'))).toBe(false);
    expect(await exists(join(project, 'rewrite-me.txt'))).toBe(false);
    expect(await readFile(join(project, 'rewritten', 'out.txt'), 'utf8')).toBe(
      'rewritten by the hook',
    );
    expect(await exists(join(project, 'secret'))).toBe(false);

    // The hook heard only the asked calls (glob is a read: no rule asks), with the asking rule.
    const heard = await readLog(log);
    expect(heard.map((entry) => (entry['tool_input'] as { path: string }).path)).toEqual([
      'allowed.txt',
      'denied.txt',
      'exit2.txt',
      'rewrite-me.txt',
      'into-denied.txt',
    ]);
    expect(heard[0]).toMatchObject({
      hook_event_name: 'PermissionRequest',
      tool_name: 'write_file',
      tool_call_id: 'c0',
      permission_mode: 'default',
      permission_rule: 'write_file',
    });
  });

  it('a hook that has no opinion leaves the headless default: denied, and a permission_prompt Notification fires', async () => {
    const sandbox = await createSandbox();
    const requests = join(sandbox.root, 'requests.log');
    const notifications = join(sandbox.root, 'notifications.log');
    const silent = await writeHookScript(sandbox.project, 'log.mjs', LOGGER_HOOK, [requests]);
    const notified = await writeHookScript(sandbox.project, 'notify.mjs', LOGGER_HOOK, [
      notifications,
    ]);
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      ...(settingsWith(
        { PermissionRequest: [silent], Notification: [notified] },
        { Notification: { matcher: 'permission_prompt' } },
      ) as object),
    });
    const { results } = await runTools(sandbox, [['write_file', { path: 'a.txt', content: 'x' }]]);
    expect(results[0]?.error).toContain('no PermissionRequest hook decided');
    expect(await exists(join(sandbox.project, 'a.txt'))).toBe(false);
    expect((await readLog(requests)).map((entry) => entry['hook_event_name'])).toEqual([
      'PermissionRequest',
    ]);
    const heard = await readLog(notifications);
    expect(heard.map((entry) => entry['notification_type'])).toEqual(['permission_prompt']);
  });

  it('hooks fire PermissionRequest reports the combined decision with the rewrite', async () => {
    const sandbox = await createSandbox();
    const hook = await writeHookScript(sandbox.project, 'allow.mjs', ANSWER_ALLOW_REWRITE);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({
        PermissionRequest: [hook],
      }),
    );
    const outcome = await runCli(
      ['hooks', 'fire', 'PermissionRequest', '--cwd', sandbox.project, '--input', '-'],
      {
        env: sandbox.env,
        input: JSON.stringify({
          tool_name: 'write_file',
          tool_input: { path: 'a.txt', content: 'x' },
          tool_call_id: 'call_1',
          permission_mode: 'default',
          permission_reason: 'asked',
        }),
      },
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({
      event: 'PermissionRequest',
      decision: 'allow',
      hookSpecificOutput: {
        decision: { behavior: 'allow', updatedInput: { path: 'b.txt', content: 'x' } },
      },
    });
  });
});

const ANSWER_ALLOW_REWRITE = `
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest',
  decision: { behavior: 'allow', updatedInput: { path: 'b.txt', content: 'x' } } } }));
`;
