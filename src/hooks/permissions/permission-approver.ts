/**
 * A person who answers permission prompts (an interactive terminal): what a call that needs
 * approval shows them, the three answers, and what "allow always" covers for the rest of a
 * session. A host without one (a headless run, an embedding) refuses what nobody decided.
 */

/** One call waiting for a person's answer. */
export interface ApprovalRequest {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The arguments the call would run with. */
  readonly args: unknown;
  /** Why it is asked: the rule's, the mode's or the hook's reason. */
  readonly reason: string;
  /**
   * Who asked: `the permission rule shell(rm *)`, `the default permission mode`,
   * `hook "guard" (PreToolUse)`.
   */
  readonly askedBy: string;
  /** The subagent whose call it is; absent for the main agent. */
  readonly agentName?: string;
}

/** `once`: run this call; `always`: run it and what `approvalScope` covers, this session; `deny`. */
export type ApprovalAnswer = 'once' | 'always' | 'deny';

/**
 * Answers permission prompts. `covers` is asked first (no prompt when an earlier `always` covers
 * the call); `ask` prompts and resolves when the person answers, or with `deny` when `signal`
 * aborts (the run is cancelled) or the prompt cannot be shown.
 */
export interface PermissionApprover {
  covers(request: ApprovalRequest): boolean;
  ask(request: ApprovalRequest, signal: AbortSignal | undefined): Promise<ApprovalAnswer>;
}

/** What an `always` answer covers: a command's exact text, or every call of any other tool. */
export interface ApprovalScope {
  /** Equal keys are covered by the same `always`. */
  readonly key: string;
  /** For the prompt: `shell running "npm test"`, `every write_file call`. */
  readonly description: string;
}

/**
 * The scope an `always` answer grants (Claude Code's session approvals, narrowed for safety): a
 * call with a `command` argument (the shell, a command-running MCP tool) is approved for that
 * exact command only; any other tool for every call of it for the rest of the session.
 */
export function approvalScope(request: Pick<ApprovalRequest, 'toolName' | 'args'>): ApprovalScope {
  const record =
    typeof request.args === 'object' && request.args !== null
      ? (request.args as Record<string, unknown>)
      : {};
  if (typeof record.command === 'string')
    return {
      key: `${request.toolName}\u0000${record.command}`,
      description: `${request.toolName} running ${JSON.stringify(record.command)}`,
    };
  return { key: request.toolName, description: `every ${request.toolName} call` };
}

/**
 * A `PermissionApprover` over a prompt function: remembers `always` answers for its lifetime
 * (one session) and shows one prompt at a time (calls that run in parallel wait their turn, and
 * one that an `always` given meanwhile covers is not asked).
 */
export function sessionApprover(
  prompt: (
    request: ApprovalRequest,
    scope: ApprovalScope,
    signal: AbortSignal | undefined,
  ) => Promise<ApprovalAnswer>,
): PermissionApprover {
  const approved = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  const covers = (request: ApprovalRequest): boolean => approved.has(approvalScope(request).key);
  return {
    covers,
    ask(request, signal) {
      const answer = queue.then(async (): Promise<ApprovalAnswer> => {
        if (covers(request)) return 'once';
        if (signal?.aborted === true) return 'deny';
        const scope = approvalScope(request);
        const given = await prompt(request, scope, signal);
        if (given === 'always') approved.add(scope.key);
        return given;
      });
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}
