import type { ToolChoice, ToolDeclaration } from '../../../content/index.ts';

/** The tools to send and how the provider should choose among them. */
export interface ToolSelection {
  /** The declared tools the model may see, in declaration order. */
  readonly tools: readonly ToolDeclaration[];
  /** The mode to send; `undefined` means send none (the provider's default applies). */
  readonly mode?: 'auto' | 'required' | 'none';
  /** Set when `required` leaves exactly one allowed tool: the provider is told to call it. */
  readonly forcedToolName?: string;
}

/**
 * Applies a neutral `ToolChoice` to the declared tools. An `allowedToolNames` list filters the
 * tools (declaration order kept, unknown names ignored); `required` with a single allowed tool
 * forces that tool. With no tools left there is nothing to choose from, so no mode is sent (a
 * `required` over zero tools would be rejected by every provider). No `toolChoice`: all tools,
 * no mode.
 */
export function selectTools(
  tools: readonly ToolDeclaration[] | undefined,
  toolChoice: ToolChoice | undefined,
): ToolSelection {
  const declared = tools ?? [];
  if (toolChoice === undefined) return { tools: declared };
  const allowed = toolChoice.allowedToolNames;
  let selected = declared;
  if (allowed !== undefined) {
    const names = new Set(allowed);
    selected = declared.filter((tool) => names.has(tool.name));
  }
  if (selected.length === 0) return { tools: selected };
  const only = selected.length === 1 ? selected[0] : undefined;
  if (toolChoice.mode === 'required' && only !== undefined && allowed !== undefined) {
    return { tools: selected, mode: 'required', forcedToolName: only.name };
  }
  return { tools: selected, mode: toolChoice.mode };
}
