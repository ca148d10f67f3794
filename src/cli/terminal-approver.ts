/**
 * Interactive approvals for `hookwire run` at a terminal: when stdin and stdout are both a TTY,
 * a call that needs approval and that no PermissionRequest hook decided is put to the user once
 * (allow once / allow always for this session / deny), showing the tool, its arguments (bounded,
 * control characters escaped: the model chose them) and who asked. Headless (either side not a
 * terminal) there is no approver and such calls are refused, as before.
 */
import { createInterface } from 'node:readline';
import {
  sessionApprover,
  type ApprovalAnswer,
  type ApprovalRequest,
  type ApprovalScope,
  type PermissionApprover,
} from '../hooks/permissions/index.ts';

/** How much of a call's arguments the prompt shows. */
export const PROMPT_ARGUMENTS_CHARS = 600;
/** How much of a reason (a hook's, a rule's) the prompt shows. */
const PROMPT_REASON_CHARS = 300;

interface TerminalStreams {
  readonly input: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly output: NodeJS.WritableStream & { readonly isTTY?: boolean };
}

/** Options of `terminalApprover`. */
export interface TerminalApproverOptions {
  /** Default `process.stdin` / `process.stdout`. */
  readonly streams?: TerminalStreams;
  /**
   * Called on Ctrl-C at the prompt (raw mode reads it as a key, not a signal): cancel the run as
   * SIGINT would. Default: sends SIGINT to this process.
   */
  readonly onInterrupt?: () => void;
}

/**
 * The approver of a `hookwire run` whose stdin and stdout are a terminal; `undefined` otherwise
 * (headless: nobody to ask). Ctrl-C at the prompt denies the call and cancels the run
 * (`onInterrupt`); end of input (Ctrl-D) denies the call.
 */
export function terminalApprover(
  options: TerminalApproverOptions = {},
): PermissionApprover | undefined {
  const streams = options.streams ?? { input: process.stdin, output: process.stdout };
  const onInterrupt =
    options.onInterrupt ??
    (() => {
      process.kill(process.pid, 'SIGINT');
    });
  if (streams.input.isTTY !== true || streams.output.isTTY !== true) return undefined;
  // After a Ctrl-C at the prompt the run is being cancelled: nothing more is asked.
  let interrupted = false;
  return sessionApprover(async (request, scope, signal) => {
    if (interrupted) return 'deny';
    const answer = await promptOnce(streams, request, scope, signal);
    if (answer === 'interrupted') {
      interrupted = true;
      onInterrupt();
      return 'deny';
    }
    return answer;
  });
}

/** C0 and C1 control characters (an escape sequence could redraw the prompt) and newlines. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** One line of untrusted text, control characters escaped, at most `limit` characters. */
export function shownText(text: string, limit: number): string {
  const escaped = text.replace(
    CONTROL,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > limit
    ? `${escaped.slice(0, limit)}… (${escaped.length - limit} more characters)`
    : escaped;
}

/** The text of the prompt for `request` (before the question line). */
export function approvalPromptText(request: ApprovalRequest, scope: ApprovalScope): string {
  let args: string;
  try {
    args = request.args === undefined ? 'undefined' : JSON.stringify(request.args);
  } catch {
    args = String(request.args);
  }
  const who = request.agentName === undefined ? '' : ` (subagent ${request.agentName})`;
  return [
    '',
    `hookwire: approve ${shownText(request.toolName, 120)}${who}?`,
    `  arguments: ${shownText(args, PROMPT_ARGUMENTS_CHARS)}`,
    `  asked by:  ${shownText(request.askedBy, PROMPT_REASON_CHARS)}`,
    `  reason:    ${shownText(request.reason, PROMPT_REASON_CHARS)}`,
    `  [y] allow once   [a] allow always (${shownText(scope.description, 160)}, this session)   [n] deny`,
    '',
  ].join('\n');
}

const ANSWERS: Readonly<Record<string, ApprovalAnswer>> = {
  y: 'once',
  yes: 'once',
  once: 'once',
  a: 'always',
  always: 'always',
  n: 'deny',
  no: 'deny',
  deny: 'deny',
};

/**
 * Shows the prompt and reads answers until one is valid; `deny` when the run is cancelled or
 * input ends, `interrupted` on Ctrl-C.
 */
function promptOnce(
  streams: TerminalStreams,
  request: ApprovalRequest,
  scope: ApprovalScope,
  signal: AbortSignal | undefined,
): Promise<ApprovalAnswer | 'interrupted'> {
  return new Promise((resolvePromise) => {
    const terminal = createInterface({
      input: streams.input,
      output: streams.output,
      terminal: true,
    });
    let settled = false;
    const settle = (answer: ApprovalAnswer | 'interrupted', note?: string): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (note !== undefined) streams.output.write(`${note}\n`);
      terminal.close();
      resolvePromise(answer);
    };
    const onAbort = (): void => {
      settle('deny', '\nhookwire: the run was cancelled; the call is denied.');
    };
    if (signal?.aborted === true) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    // Raw mode turns Ctrl-C into readline's SIGINT event, not a signal: deny and cancel the run
    // the way the signal would have.
    terminal.on('SIGINT', () => {
      settle('interrupted', '^C');
    });
    terminal.on('close', () => {
      settle('deny');
    });
    terminal.on('line', (line) => {
      const answer = ANSWERS[line.trim().toLowerCase()];
      if (answer !== undefined) settle(answer);
      else terminal.setPrompt('Answer y (allow once), a (allow always) or n (deny): ');
      if (!settled) terminal.prompt();
    });
    streams.output.write(approvalPromptText(request, scope));
    terminal.setPrompt('Allow? [y/a/n] ');
    terminal.prompt();
  });
}
