import { describe, expect, it } from 'vitest';
import {
  analyzeShellCommand,
  commandGlob,
  decidePermission,
  parsePermissionRule,
  type PermissionRules,
} from './index.ts';

const context = { projectDir: '/work/project', homeDir: '/home/me' };

function rules(lists: Partial<Record<'allow' | 'deny' | 'ask', string[]>>): PermissionRules {
  const parse = (source: string) => {
    const parsed = parsePermissionRule(source);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  };
  return {
    allow: (lists.allow ?? []).map(parse),
    deny: (lists.deny ?? []).map(parse),
    ask: (lists.ask ?? []).map(parse),
  };
}

async function decide(
  command: string,
  lists: Partial<Record<'allow' | 'deny' | 'ask', string[]>>,
): Promise<string> {
  const call = { toolName: 'shell', command, shell: await analyzeShellCommand(command) };
  return decidePermission(call, { rules: rules(lists), mode: 'default', context }).behavior;
}

/** Every spelling of `rm victim.txt` the issue lists, and a few more. */
const RM_SPELLINGS: readonly string[] = [
  'rm -f victim.txt',
  '\\rm -f victim.txt',
  '/bin/rm -f victim.txt',
  "'rm' -f victim.txt",
  "r''m -f victim.txt",
  '"r"m -f victim.txt',
  "$'rm' -f victim.txt",
  'command rm -f victim.txt',
  'builtin eval "rm -f victim.txt"',
  'exec rm -f victim.txt',
  'env rm -f victim.txt',
  'env -i PATH=/usr/bin:/bin FOO=1 rm -f victim.txt',
  '(rm -f victim.txt)',
  '{ rm -f victim.txt; }',
  'if true; then rm -f victim.txt; fi',
  'while true; do rm -f victim.txt; break; done',
  'for f in victim.txt; do rm -f "$f"; done',
  'case x in x) rm -f victim.txt;; esac',
  'echo $(rm -f victim.txt)',
  'echo `rm -f victim.txt`',
  'echo "$(rm -f victim.txt)"',
  'cat <(rm -f victim.txt)',
  'x=$(rm -f victim.txt)',
  'echo ${x:-$(rm -f victim.txt)}',
  'cat <<EOF\n$(rm -f victim.txt)\nEOF',
  '$(echo rm) -f victim.txt',
  'CMD=rm; $CMD -f victim.txt',
  'sh -c "rm -f victim.txt"',
  "bash -c 'rm -f victim.txt'",
  'bash -lc "cd . && rm -f victim.txt"',
  'dash -c "rm -f victim.txt"',
  'sh -c "$0 -f victim.txt" rm',
  'echo rm -f victim.txt | sh',
  'echo victim.txt | xargs rm -f',
  'echo victim.txt | xargs -I{} rm -f {}',
  'find . -name victim.txt -exec rm -f {} \\;',
  "find . -name victim.txt -execdir rm -f {} ';'",
  'find . -name victim.txt -delete',
  'eval "rm -f victim.txt"',
  'eval rm -f victim.txt',
  'nice rm -f victim.txt',
  'nice -n 5 rm -f victim.txt',
  'nohup rm -f victim.txt',
  'timeout 5 rm -f victim.txt',
  'timeout -s KILL 5 rm -f victim.txt',
  'time rm -f victim.txt',
  'sudo -u root rm -f victim.txt',
  'true && rm -f victim.txt',
  'false || rm -f victim.txt',
  'ls | rm -f victim.txt',
  'ls; rm -f victim.txt',
  '! rm -f victim.txt',
  'f() { rm -f victim.txt; }; f',
  'trap "rm -f victim.txt" EXIT',
  'r\\\nm -f victim.txt',
  'r?m -f victim.txt',
  'echo "unterminated; rm -f victim.txt',
];

describe('shell analysis: the simple commands a line runs', () => {
  it('normalises the command word: quotes and backslashes removed, a path reduced to its name', async () => {
    for (const spelling of ['\\rm x', '/bin/rm x', "'rm' x", "r''m x", '"rm" x', "$'rm' x"]) {
      const analysis = await analyzeShellCommand(spelling);
      expect(
        analysis.commands.map((command) => command.words),
        spelling,
      ).toEqual([['rm', 'x']]);
      expect(analysis.unknown, spelling).toEqual([]);
    }
  });

  it('finds commands in lists, pipelines, subshells, groups, bodies and substitutions', async () => {
    const analysis = await analyzeShellCommand(
      'a 1 && (b 2) | { c 3; }; if d; then e $(f `g`); fi; for i in x; do h <(j); done',
    );
    expect(analysis.commands.map((command) => command.words[0]).sort()).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'j'].sort(),
    );
    expect(analysis.unknown).toEqual([]);
  });

  it('follows sh -c, eval and the wrappers to the command they run', async () => {
    const names = async (line: string) =>
      (await analyzeShellCommand(line)).commands.map((command) => command.words[0]);
    expect(await names('sudo -u root nice -n 3 timeout 5 env A=1 rm x')).toEqual([
      'sudo',
      'nice',
      'timeout',
      'env',
      'rm',
    ]);
    expect(await names('bash -c "eval \\"rm x\\""')).toEqual(['bash', 'eval', 'rm']);
    expect(await names('find . -name y -exec rm {} + -delete')).toEqual(['find', 'rm', 'rm']);
    expect(await names('ls | xargs')).toEqual(['ls', 'xargs', 'echo']);
  });

  it('names what it cannot know: a dynamic command word, sh -c or eval of one, a shell fed by a pipe, a line that does not parse', async () => {
    for (const line of [
      '$CMD x',
      '$(echo rm) x',
      '"$X" y',
      'r*m x',
      'sh -c "$X"',
      'eval "$X"',
      'echo rm x | bash',
      'xargs $X',
      'env $X rm',
      'echo "unterminated',
    ]) {
      expect((await analyzeShellCommand(line)).unknown, line).not.toEqual([]);
    }
    for (const line of ['rm "$f"', 'ls $DIR', 'git commit -m "$(cat msg)"', 'bash script.sh'])
      expect((await analyzeShellCommand(line)).unknown, line).toEqual([]);
  });

  it('keeps the redirections in the text rules match', async () => {
    const [command] = (await analyzeShellCommand('git status > out.txt 2>&1')).commands;
    expect(command?.text).toBe('git status > out.txt 2>&1');
    expect(command?.redirects).toBe(true);
  });
});

describe('shell-aware rules', () => {
  const lists = { allow: ['shell'], deny: ['shell(rm *)'] };

  it('a deny rule holds for every spelling of the command', async () => {
    for (const spelling of RM_SPELLINGS)
      expect(await decide(spelling, lists), spelling).toBe('deny');
  });

  it('a deny rule leaves other commands alone, even ones that mention its words', async () => {
    for (const line of [
      'echo rm -f victim.txt',
      "grep 'rm -f' notes.txt",
      'command -v rm',
      'ls -la',
      'git commit -m "rm old files"',
      'rmdir empty',
    ])
      expect(await decide(line, lists), line).toBe('allow');
  });

  it('an unknown command is denied when a deny rule names the tool, asked when an ask rule does, never allowed by a specific rule', async () => {
    expect(await decide('$CMD victim.txt', { allow: ['shell'], deny: ['shell(git push *)'] })).toBe(
      'deny',
    );
    expect(await decide('$CMD victim.txt', { allow: ['shell'], ask: ['shell(git push *)'] })).toBe(
      'ask',
    );
    expect(await decide('$CMD victim.txt', { allow: ['shell($CMD *)'] })).toBe('ask');
    expect(await decide('$CMD victim.txt', { allow: ['shell'] })).toBe('allow');
  });

  it('an allow rule must match every simple command the line runs', async () => {
    const allow = { allow: ['shell(git status*)', 'shell(git log *)'] };
    expect(await decide('git status', allow)).toBe('allow');
    expect(await decide('git status && git log -3', allow)).toBe('allow');
    expect(await decide('git status; rm -f victim.txt', allow)).toBe('ask');
    expect(await decide('git status $(rm -f victim.txt)', allow)).toBe('ask');
    expect(await decide('git log -3 | sh', allow)).toBe('ask');
    expect(await decide('nice git status', allow)).toBe('ask');
  });

  it('the same analysis serves an ask rule', async () => {
    expect(await decide('timeout 5 rm -f x', { allow: ['shell'], ask: ['shell(rm *)'] })).toBe(
      'ask',
    );
  });
});

describe('commandGlob', () => {
  it('matches as the rules mean: * any run, a final " *" also the bare command', () => {
    const push = commandGlob('git push *');
    expect(push.matches('git push')).toBe(true);
    expect(push.matches('git push origin main')).toBe(true);
    expect(push.matches('git pushx')).toBe(false);
    const force = commandGlob('*git * push * --force*');
    expect(force.matches('x git a push b --force-with-lease')).toBe(true);
    expect(force.matches('git push --force')).toBe(false);
    expect(commandGlob('a*b*a').matches('aba')).toBe(true);
    expect(commandGlob('a*b*a').matches('ab')).toBe(false);
    expect(commandGlob('ab*ba').matches('aba')).toBe(false);
    expect(commandGlob('npm:*').matches('npm')).toBe(true);
    expect(commandGlob('npm:*').matches('npmx')).toBe(false);
  });

  it('answers a long command without backtracking', () => {
    const long = `${'git '.repeat(1700)}push ${'- '.repeat(1700)}`;
    expect(commandGlob('*git * push * --force*').matches(long)).toBe(false);
  });
});
