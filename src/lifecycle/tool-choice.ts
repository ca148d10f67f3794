/**
 * Tool choice on the request the provider receives. The effective choice is
 * `settings.toolChoice` (from the agent settings, a request patch, or a BeforeToolSelection hook,
 * the later replacing the earlier) and is enforced here, not left to the provider:
 * - `none`: no tools are sent at all;
 * - `allowedToolNames`: only the listed tools are sent (an empty list sends none);
 * - `required` / `auto`: passed on as `settings.toolChoice` for the provider to apply.
 * Any tool call for a tool that was not sent is an invalid call (`tool_not_allowed`).
 */
import type { ModelRequest, ToolChoice } from '../content/index.ts';

/** The request with `toolChoice` set as its effective choice. */
export function withToolChoice(request: ModelRequest, toolChoice: ToolChoice): ModelRequest {
  return { ...request, settings: { ...request.settings, toolChoice } };
}

/** The request with its tool choice enforced on the tools it sends. */
export function enforceToolChoice(request: ModelRequest): ModelRequest {
  const choice = request.settings?.toolChoice;
  if (choice === undefined || request.tools === undefined) return request;
  if (choice.mode === 'none') {
    const { tools: _tools, ...rest } = request;
    return rest;
  }
  const allowed = choice.allowedToolNames;
  if (allowed === undefined) return request;
  const keep = new Set(allowed);
  return { ...request, tools: request.tools.filter((tool) => keep.has(tool.name)) };
}
