/**
 * The host-parity contract (as hono's `runTest` runs one suite against every router): one table
 * of lifecycle scenarios, each run through every host that embeds hookwire's rules — the loop
 * (`createAgent`, both surfaces), `hw.generateText`, `hw.streamText` and the Claude Agent SDK
 * bridge where the event exists there — comparing the ordered hook log, what the model saw and
 * how the turn ended. A host that drifts from the others fails here, whatever its own suite says.
 *
 * Everything in a scenario is host-neutral: the model's answers, the tools (`echo`, `explode`,
 * `halt`), one in-process hook that logs what it sees, and the expected outcome. Each driver in
 * `drivers/` translates them into its host's shapes.
 */
import {
  CompletionCallAction,
  ModelOutputAction,
  PermissionRequestAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  type AgentHook,
} from '../../src/index.ts';
import type { HookEventKind } from '../../src/events/index.ts';
import { HOOK_METHOD } from '../../src/events/index.ts';

/** Every host the contract runs against. */
export const HOSTS = ['loop', 'loop-streaming', 'generateText', 'streamText', 'claude'] as const;
export type HostName = (typeof HOSTS)[number];

/** The tools every host offers: their behaviour is the same everywhere. */
export type ToolName = 'echo' | 'explode' | 'halt';

/** One model answer: text (with a finish reason), or one tool call. */
export type Answer =
  | { readonly text: string; readonly finish?: 'stop' | 'safety' }
  | {
      readonly call: {
        readonly id: string;
        readonly name: ToolName;
        readonly args: Readonly<Record<string, unknown>>;
      };
    };

/** What a host run produced, normalised (see each driver). */
export interface HostOutcome {
  /** The hook's log: one entry per event it saw, in order. */
  readonly log: readonly string[];
  /**
   * Per model call, what the model received after its previous answer: `user: …` for a user
   * message, `tool NAME: …` / `tool NAME error: …` for a tool result, `  + …` for each piece of
   * context added to it.
   */
  readonly seen: readonly (readonly string[])[];
  /** How the turn ended: the transcript's `turn-end` (the Claude bridge: what its answers mean). */
  readonly end: { readonly status: string; readonly reason?: string };
  /** The arguments each tool ran with, in order. */
  readonly ran: readonly unknown[];
  /** The texts of the hook warnings and messages reported. */
  readonly reports: readonly string[];
}

export interface Scenario {
  readonly name: string;
  /** The hosts it applies to; default all. */
  readonly hosts?: readonly HostName[];
  readonly script: readonly Answer[];
  /** The in-process hook (built with `logging`, so its log is the execution log compared). */
  readonly hook: (log: string[]) => AgentHook;
  /** Tools the permission layer asks about (a PermissionRequest fires for each of their calls). */
  readonly ask?: readonly ToolName[];
  readonly stopContinuationsPerTurn?: number;
  readonly expect: HostOutcome;
  /**
   * Where a host differs by design (the host, not hookwire, owns that part of the loop), what it
   * produces instead; each says why.
   */
  readonly differences?: Partial<Record<HostName, { readonly why: string } & Partial<HostOutcome>>>;
}

/** The external name each logged kind is written under. */
const LABEL: Partial<Record<HookEventKind, string>> = {
  promptSubmit: 'UserPromptSubmit',
  completionCall: 'BeforeModel',
  modelOutput: 'AfterModel',
  toolCall: 'PreToolUse',
  permissionRequest: 'PermissionRequest',
  toolResult: 'PostToolUse',
  toolFailure: 'PostToolUseFailure',
  stop: 'Stop',
  stopFailure: 'StopFailure',
  interrupt: 'Interrupt',
};

/** The events every scenario's hook observes (others only when the scenario answers them). */
const ALWAYS: readonly HookEventKind[] = [
  'promptSubmit',
  'toolCall',
  'toolResult',
  'toolFailure',
  'stop',
  'stopFailure',
  'interrupt',
];

const GO_ON: Partial<Record<HookEventKind, unknown>> = {
  toolCall: ToolCallAction.run(),
  toolResult: ToolResultAction.keep(),
};

function entry(kind: HookEventKind, event: Record<string, unknown>): string {
  const label = LABEL[kind] ?? kind;
  switch (kind) {
    case 'toolCall':
    case 'permissionRequest':
    case 'toolFailure':
      return `${label}:${String(event.toolName)}`;
    case 'toolResult':
      return `${label}:${String(event.toolName)}${event.skipped === true ? '(skipped)' : ''}`;
    case 'stop':
      return `${label}(active=${String(event.stopHookActive)},continuations=${String(event.continuations)})`;
    case 'stopFailure':
      return `${label}(${String(event.finishReason)})`;
    default:
      return label;
  }
}

type Answers = {
  readonly [K in HookEventKind]?: (event: Record<string, unknown>, seen: number) => unknown;
};

/**
 * A hook that logs the events of `ALWAYS` and of `answers` and answers with `answers[kind]`
 * (given the event and how many of its kind it saw before), else "go on".
 */
export function logging(log: string[], answers: Answers = {}): AgentHook {
  const hook: Record<string, unknown> = { name: 'parity' };
  const counts = new Map<HookEventKind, number>();
  const kinds = new Set<HookEventKind>([...ALWAYS, ...(Object.keys(answers) as HookEventKind[])]);
  for (const kind of kinds) {
    hook[HOOK_METHOD[kind]] = (_context: unknown, event: Record<string, unknown>) => {
      log.push(entry(kind, event));
      const seen = counts.get(kind) ?? 0;
      counts.set(kind, seen + 1);
      const answer = answers[kind];
      if (answer !== undefined) return answer(event, seen);
      return kind in GO_ON ? GO_ON[kind] : { kind: 'continue' };
    };
  }
  return hook;
}

const PROMPT = 'user: Do the task';
const echoCall = (text: string, id = 'c1'): Answer => ({
  call: { id, name: 'echo', args: { text } },
});

/** The default Stop continuation budget, the same in every host (Claude Code's). */
export const DEFAULT_BUDGET = 8;

const budgetWarning = (continuations: number, reason: string): string =>
  `a Stop hook blocked again ("${reason}"), but this turn already continued ${continuations} time(s) (stopContinuationsPerTurn: ${continuations}); the turn ends. Raise stopContinuationsPerTurn (hookwire run --max-stop-continuations N) to let Stop hooks continue a turn more often.`;

const CLAUDE_CANNOT_SUPPLY =
  'a hook supplied the result of echo instead of running it, which the Claude Agent SDK cannot deliver; the call was not run';

const MODEL_HOSTS: readonly HostName[] = ['loop', 'loop-streaming', 'generateText', 'streamText'];
const BLOCKING_MODEL_HOSTS: readonly HostName[] = ['loop', 'generateText'];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'a plain tool round ends the turn completed',
    script: [echoCall('hi'), { text: 'done' }],
    hook: (log) => logging(log),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:echo',
        'PostToolUse:echo',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool echo: {"text":"hi"}']],
      end: { status: 'completed' },
      ran: [{ text: 'hi' }],
      reports: [],
    },
  },
  {
    name: 'Stop block continues the turn with the reason as the next user message',
    script: [{ text: 'first' }, { text: 'second' }],
    hook: (log) =>
      logging(log, {
        stop: (_event, seen) =>
          seen === 0 ? StopAction.block('Run the tests too.') : StopAction.continue(),
      }),
    expect: {
      log: [
        'UserPromptSubmit',
        'Stop(active=false,continuations=0)',
        'Stop(active=true,continuations=1)',
      ],
      seen: [[PROMPT], ['user: Run the tests too.']],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'Stop stop ends the turn stopped, with the reason',
    script: [{ text: 'done' }],
    hook: (log) => logging(log, { stop: () => StopAction.stop('policy says stop') }),
    expect: {
      log: ['UserPromptSubmit', 'Stop(active=false,continuations=0)'],
      seen: [[PROMPT]],
      end: { status: 'stopped', reason: 'policy says stop' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'Stop budget spent: the turn ends completed with a warning saying how to raise it',
    script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
    stopContinuationsPerTurn: 2,
    hook: (log) => logging(log, { stop: () => StopAction.block('Keep going.') }),
    expect: {
      log: [
        'UserPromptSubmit',
        'Stop(active=false,continuations=0)',
        'Stop(active=true,continuations=1)',
        'Stop(active=true,continuations=2)',
      ],
      seen: [[PROMPT], ['user: Keep going.'], ['user: Keep going.']],
      end: { status: 'completed' },
      ran: [],
      reports: [budgetWarning(2, 'Keep going.')],
    },
  },
  {
    name: `the default Stop budget is ${DEFAULT_BUDGET} continuations, in every host`,
    script: Array.from({ length: DEFAULT_BUDGET + 1 }, (_, index) => ({ text: `answer ${index}` })),
    hook: (log) => logging(log, { stop: () => StopAction.block('Again.') }),
    expect: {
      log: [
        'UserPromptSubmit',
        ...Array.from(
          { length: DEFAULT_BUDGET + 1 },
          (_, index) => `Stop(active=${String(index > 0)},continuations=${index})`,
        ),
      ],
      seen: [[PROMPT], ...Array.from({ length: DEFAULT_BUDGET }, () => ['user: Again.'])],
      end: { status: 'completed' },
      ran: [],
      reports: [budgetWarning(DEFAULT_BUDGET, 'Again.')],
    },
  },
  {
    name: 'PreToolUse skip: the tool does not run, the model sees the reason, PostToolUse sees it skipped',
    script: [echoCall('rm -rf /'), { text: 'ok' }],
    hook: (log) => logging(log, { toolCall: () => ToolCallAction.skip('not this one') }),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:echo',
        'PostToolUse:echo(skipped)',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool echo error: not this one']],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
    differences: {
      claude: {
        why: 'Claude Code answers a denied call itself and fires no PostToolUse for it',
        log: ['UserPromptSubmit', 'PreToolUse:echo', 'Stop(active=false,continuations=0)'],
      },
    },
  },
  {
    name: 'PreToolUse stop: the tool does not run and the turn ends stopped after the step',
    hosts: MODEL_HOSTS,
    script: [echoCall('hi'), { text: 'never' }],
    hook: (log) => logging(log, { toolCall: () => ToolCallAction.stop('enough') }),
    expect: {
      log: ['UserPromptSubmit', 'PreToolUse:echo'],
      seen: [[PROMPT]],
      end: { status: 'stopped', reason: 'enough' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'PreToolUse rewrite: the tool runs with the rewritten arguments',
    script: [echoCall('draft'), { text: 'ok' }],
    hook: (log) => logging(log, { toolCall: () => ToolCallAction.rewrite({ text: 'final' }) }),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:echo',
        'PostToolUse:echo',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool echo: {"text":"final"}']],
      end: { status: 'completed' },
      ran: [{ text: 'final' }],
      reports: [],
    },
  },
  {
    name: 'PreToolUse result: the tool never runs, PostToolUse reviews the supplied result, the model sees it',
    script: [echoCall('expensive'), { text: 'ok' }],
    hook: (log) =>
      logging(log, {
        toolCall: () => ToolCallAction.result({ text: 'from the cache' }),
        toolResult: (event) => {
          log.push(`reviewed=${JSON.stringify(event.presentation)}`);
          return ToolResultAction.rewrite({ text: 'from the cache, reviewed' });
        },
      }),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:echo',
        'PostToolUse:echo',
        'reviewed={"text":"from the cache"}',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool echo: {"text":"from the cache, reviewed"}']],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
    differences: {
      claude: {
        why: 'the Claude Agent SDK’s PreToolUse answer cannot carry a result: the bridge refuses the call, saying so, and never runs it',
        log: ['UserPromptSubmit', 'PreToolUse:echo', 'Stop(active=false,continuations=0)'],
        seen: [[PROMPT], [`tool echo error: ${CLAUDE_CANNOT_SUPPLY}`]],
        reports: [CLAUDE_CANNOT_SUPPLY],
      },
    },
  },
  {
    name: 'PermissionRequest allow with updatedInput: the tool runs with it',
    script: [echoCall('ask me'), { text: 'ok' }],
    ask: ['echo'],
    hook: (log) =>
      logging(log, {
        permissionRequest: () => PermissionRequestAction.allow({ text: 'approved' }),
      }),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:echo',
        'PermissionRequest:echo',
        'PostToolUse:echo',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool echo: {"text":"approved"}']],
      end: { status: 'completed' },
      ran: [{ text: 'approved' }],
      reports: [],
    },
  },
  {
    name: 'PermissionRequest deny: the tool does not run and the model sees the message',
    hosts: MODEL_HOSTS,
    script: [echoCall('ask me'), { text: 'ok' }],
    ask: ['echo'],
    hook: (log) =>
      logging(log, { permissionRequest: () => PermissionRequestAction.deny('not today') }),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:echo',
        'PermissionRequest:echo',
        'PostToolUse:echo(skipped)',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool echo error: Permission denied: not today']],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'PostToolUse rewrite and context: the model sees the rewrite and the context',
    script: [echoCall('secret'), { text: 'ok' }],
    hook: (log) =>
      logging(log, {
        toolResult: () => ToolResultAction.rewrite({ text: '[redacted]' }, 'Mind the secrets.'),
      }),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:echo',
        'PostToolUse:echo',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool echo: {"text":"[redacted]"}', '  + Mind the secrets.']],
      end: { status: 'completed' },
      ran: [{ text: 'secret' }],
      reports: [],
    },
  },
  {
    name: 'PostToolUseFailure: the model sees the error and the hook’s context',
    script: [{ call: { id: 'c1', name: 'explode', args: {} } }, { text: 'sorry' }],
    hook: (log) =>
      logging(log, {
        toolFailure: () => ({ kind: 'continue', additionalContext: 'Check the disk.' }),
      }),
    expect: {
      log: [
        'UserPromptSubmit',
        'PreToolUse:explode',
        'PostToolUseFailure:explode',
        'Stop(active=false,continuations=0)',
      ],
      seen: [[PROMPT], ['tool explode error: the disk is on fire', '  + Check the disk.']],
      end: { status: 'completed' },
      ran: [{}],
      reports: [],
    },
    differences: Object.fromEntries(
      (['generateText', 'streamText'] as const).map((host) => [
        host,
        {
          why: 'the AI SDK itself renders a tool’s error for the model, as `String(error)`',
          seen: [
            [PROMPT],
            ['tool explode error: Error: the disk is on fire', '  + Check the disk.'],
          ],
        },
      ]),
    ),
  },
  {
    name: 'BeforeModel respond: the model is not called, the synthetic answer stands',
    hosts: MODEL_HOSTS,
    script: [{ text: 'never sent' }],
    hook: (log) =>
      logging(log, {
        completionCall: () =>
          CompletionCallAction.respond({
            content: { speaker: 'ai', blocks: [{ type: 'text', text: 'from the cache' }] },
            finishReason: 'stop',
          }),
        stop: (event) => {
          log.push(`answer=${String(event.promptResponse)}`);
          return StopAction.continue();
        },
      }),
    expect: {
      log: [
        'UserPromptSubmit',
        'BeforeModel',
        'Stop(active=false,continuations=0)',
        'answer=from the cache',
      ],
      seen: [],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'BeforeModel patch: the model receives the patched request',
    hosts: MODEL_HOSTS,
    script: [{ text: 'ok' }],
    hook: (log) =>
      logging(log, {
        completionCall: () => CompletionCallAction.patch({ extraContext: ['Be brief.'] }),
      }),
    expect: {
      log: ['UserPromptSubmit', 'BeforeModel', 'Stop(active=false,continuations=0)'],
      seen: [[PROMPT, 'user: Be brief.']],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'AfterModel replace: the replaced answer is what the turn keeps',
    hosts: BLOCKING_MODEL_HOSTS,
    script: [{ text: 'raw answer' }],
    hook: (log) =>
      logging(log, {
        modelOutput: () =>
          ModelOutputAction.replace({
            content: { speaker: 'ai', blocks: [{ type: 'text', text: 'clean answer' }] },
            finishReason: 'stop',
          }),
        stop: (event) => {
          log.push(`answer=${String(event.promptResponse)}`);
          return StopAction.continue();
        },
      }),
    expect: {
      log: [
        'UserPromptSubmit',
        'AfterModel',
        'Stop(active=false,continuations=0)',
        'answer=clean answer',
      ],
      seen: [[PROMPT]],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'Interrupt on abort: the turn ends cancelled and Interrupt fires, not Stop',
    hosts: MODEL_HOSTS,
    script: [{ call: { id: 'c1', name: 'halt', args: {} } }, { text: 'never' }],
    hook: (log) => logging(log),
    expect: {
      log: ['UserPromptSubmit', 'PreToolUse:halt', 'Interrupt'],
      seen: [[PROMPT]],
      end: { status: 'cancelled', reason: 'the user pressed Esc' },
      ran: [{}],
      reports: [],
    },
  },
  {
    name: 'StopFailure: a filtered answer fails the turn and fires StopFailure, not Stop',
    hosts: MODEL_HOSTS,
    script: [{ text: 'unsafe', finish: 'safety' }],
    hook: (log) => logging(log),
    expect: {
      log: ['UserPromptSubmit', 'StopFailure(safety)'],
      seen: [[PROMPT]],
      end: { status: 'failed', reason: 'the model\'s answer ended with finish reason "safety"' },
      ran: [],
      reports: [],
    },
  },
  {
    name: 'UserPromptSubmit context is added after the prompt',
    script: [{ text: 'ok' }],
    hook: (log) =>
      logging(log, { promptSubmit: () => PromptSubmitAction.continue('Repo: hookwire.') }),
    expect: {
      log: ['UserPromptSubmit', 'Stop(active=false,continuations=0)'],
      seen: [[`${PROMPT} Repo: hookwire.`]],
      end: { status: 'completed' },
      ran: [],
      reports: [],
    },
  },
];
