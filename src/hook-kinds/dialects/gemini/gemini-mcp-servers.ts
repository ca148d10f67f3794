/** Gemini CLI's `mcpServers` in its settings file. */
import { isJsonObject } from '../../../wire/json-object.ts';
import type { McpServerEntry } from '../../settings/mcp-servers.ts';
import { formatJsonPath, type SettingsIssue } from '../../settings/settings-issue.ts';
import type { DialectOrigin, McpServersReader } from '../dialect-contract.ts';

/** Fields of Gemini CLI's MCP servers that hookwire does not implement (ignored, said once each). */
const GEMINI_ONLY_SERVER_FIELDS = new Set([
  'trust',
  'includeTools',
  'excludeTools',
  'oauth',
  'authProviderType',
  'targetAudience',
  'targetServiceAccount',
]);

/**
 * Gemini CLI's `mcpServers` (the shape of `.mcp.json`, read by the same reader under the same
 * trust rules: a project file's servers start once trusted), leniently: a field only Gemini CLI
 * has (`trust`, `includeTools`, …) is ignored and a server hookwire cannot run is skipped, each
 * with a warning naming the file and JSON path; the other servers still load.
 */
export function geminiMcpServers(
  raw: Readonly<Record<string, unknown>>,
  origin: DialectOrigin,
  warnings: string[],
  readMcpServers: McpServersReader,
): McpServerEntry[] {
  const servers = raw['mcpServers'];
  if (servers === undefined) return [];
  const cleaned: Record<string, unknown> = {};
  if (isJsonObject(servers))
    for (const [name, server] of Object.entries(servers)) {
      if (!isJsonObject(server)) {
        cleaned[name] = server;
        continue;
      }
      const kept: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(server)) {
        if (GEMINI_ONLY_SERVER_FIELDS.has(key))
          warnings.push(
            `${origin.file} at ${formatJsonPath(['mcpServers', name, key])}: hookwire does not implement Gemini CLI's ${JSON.stringify(key)}: ignored (the server starts without it)`,
          );
        else kept[key] = value;
      }
      cleaned[name] = kept;
    }
  const issues: SettingsIssue[] = [];
  const entries = readMcpServers(
    { mcpServers: isJsonObject(servers) ? cleaned : servers },
    { file: origin.file, layer: origin.layer },
    issues,
  );
  for (const issue of issues)
    warnings.push(
      `${issue.file} at ${issue.path}: ${issue.message} (${issue.fix}): this server is not started`,
    );
  return entries;
}
