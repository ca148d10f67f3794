/**
 * The permission check of a shell call with command rules, on 20,000-character commands: the
 * whole check (`decideCall`: the shell analysis in its helper process, then every deny, ask and
 * allow rule against every simple command) beside the analysis alone, and against the issue's
 * bound of 50 ms. Two commands: a list of about 400 simple commands (every rule is tried on each,
 * nothing matches early), and one 20,000-character simple command against
 * `shell(*git * push * --force*)`, the rule that took ~8 s as a backtracking regular expression.
 */
import type * as PermissionsModule from '../src/hooks/permissions/index.ts';
import type * as ParserModule from '../src/hooks/permissions/shell-parser.ts';
import { load, timing } from './built.ts';
import { compare, record, type Comparison } from './harness.ts';

const { analyzeShellCommand, analyzeWith, decideCall, decidePermission, parsePermissionRule } =
  await load<typeof PermissionsModule>('hooks/permissions/index');
const { parseShell, shellParser } = await load<typeof ParserModule>(
  'hooks/permissions/shell-parser',
);

const BOUND_MS = 50;
const LENGTH = 20_000;

function rules(sources: readonly string[]): PermissionsModule.PermissionRule[] {
  return sources.map((source) => {
    const parsed = parsePermissionRule(source);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  });
}

const permissions: PermissionsModule.AgentPermissions = {
  rules: {
    deny: rules(['shell(*git * push * --force*)', 'shell(rm *)', 'shell(curl *)']),
    ask: rules(['shell(npm publish *)', 'shell(docker *)']),
    allow: rules(['shell(git log *)', 'shell(git status*)', 'shell(echo *)', 'shell(cat *)']),
  },
  mode: 'default',
  homeDir: '/home/bench',
};

/** About 400 simple commands joined by `&&` and `|`, with substitutions, to 20,000 characters. */
function listCommand(): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < LENGTH; index++) {
    const part =
      index % 3 === 0
        ? `git log --oneline -n ${index} -- "src/module-${index}.ts"`
        : index % 3 === 1
          ? `echo "step ${index}: $(cat notes-${index}.txt)"`
          : `cat file-${index}.txt | git status --short`;
    parts.push(part);
    length += part.length + 4;
  }
  return parts.join(' && ').slice(0, LENGTH);
}

/** One simple command: `git git git … push - - - …`, nearly matching the force-push rule. */
function longCommand(): string {
  const half = Math.floor(LENGTH / 2);
  return `${'git '.repeat(half / 4)}push ${'- '.repeat((LENGTH - half - 5) / 2)}`.slice(0, LENGTH);
}

async function figure(name: string, command: string): Promise<void> {
  const check = () => decideCall(permissions, 'shell', { command }, '/work/project');
  const decision = await check();
  console.log(`    ${name}: ${command.length} characters, decided ${decision.behavior}`);
  const comparison: Comparison = await compare(
    `permission check vs the shell analysis alone (${name}, ${command.length} characters)`,
    check,
    () => analyzeShellCommand(command),
    { rounds: 21, operationsPerSample: 1, unit: 'ms' },
  );
  record({
    name: `permission check against the ${BOUND_MS} ms bound (${name})`,
    candidate: comparison.candidate,
    baseline: { median: BOUND_MS, p90: BOUND_MS, samples: 1 },
    ratio: comparison.candidate.median / BOUND_MS,
    unit: 'ms',
    limit: 1,
  });
  // The same work in this process, timed by CPU clock, which a loaded machine disturbs far less
  // than the wall clock: the analysis and the rules beside the parse alone.
  const parser = await shellParser();
  const context = { projectDir: '/work/project', homeDir: '/home/bench' };
  const inProcess = await compare(
    `analysis and rules vs the parse alone, CPU time in one process (${name})`,
    () =>
      decidePermission(
        { toolName: 'shell', command, shell: analyzeWith(parser, command) },
        { rules: permissions.rules, mode: 'default', context },
      ),
    () => {
      parseShell(parser, command).delete();
    },
    { rounds: 21, operationsPerSample: 1, unit: 'ms', clock: 'cpu', warmupRounds: 10 },
  );
  record({
    name: `analysis and rules, CPU time, against the ${BOUND_MS} ms bound (${name})`,
    candidate: inProcess.candidate,
    baseline: { median: BOUND_MS, p90: BOUND_MS, samples: 1 },
    ratio: inProcess.candidate.median / BOUND_MS,
    unit: 'ms',
    limit: 1,
  });
}

export default async function shellRulesBench(): Promise<void> {
  console.log(`    ${timing()}`);
  await figure('a list of simple commands', listCommand());
  await figure('one long simple command', longCommand());
}
