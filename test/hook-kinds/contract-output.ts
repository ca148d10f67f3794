import type { ScriptedHookSpec } from '../../src/hooks/testing/index.ts';

/** The hook output JSON that answers like `spec.respond` (undefined: no output). */
export function hookOutputFor(spec: ScriptedHookSpec): Record<string, unknown> | undefined {
  const { respond } = spec;
  switch (respond.type) {
    case 'continue':
      return undefined;
    case 'rewriteArgs':
      return { hookSpecificOutput: { updatedInput: respond.args } };
    case 'rewriteResult':
      return { hookSpecificOutput: { updatedToolOutput: respond.presentation } };
    case 'addContext':
      return { hookSpecificOutput: { additionalContext: respond.context } };
    case 'deny':
      return { decision: 'deny', reason: respond.reason };
    case 'block':
      return { decision: 'block', reason: respond.reason };
    case 'stop':
      return { continue: false, stopReason: respond.reason };
  }
}
