/**
 * MCP servers in settings: the `mcpServers` object of a hookwire settings file and of a project's
 * `.mcp.json`, in the shape Claude Code and Gemini CLI use:
 *
 * - stdio: `{"command": "npx", "args": ["-y", "server"], "env": {"TOKEN": "${TOKEN}"}, "cwd": "tools"}`
 *   (`"type": "stdio"` optional);
 * - streamable HTTP: `{"type": "http", "url": "http://127.0.0.1:8080/mcp", "headers": {…}}`
 *   (Gemini CLI's `"httpUrl": URL` means the same).
 *
 * Optional on both: `timeout` (a tool call's deadline: milliseconds as a number, Gemini CLI's
 * meaning, or a duration string such as `"2m"`; default 10 minutes), `startupTimeout` (connect
 * and list tools; same units; default 30 s), `disabled: true` (configured, not started),
 * `description`.
 *
 * `${VAR}` and `${VAR:-default}` in `command`, `args`, `env`, `cwd`, `url` and `headers` expand
 * from the environment when the server starts (Claude Code's `.mcp.json` expansion), so a file
 * can name a token without holding it. Read tolerantly after the schema check, so every issue of
 * a file is reported at once.
 */
import { z } from 'zod';
import { isJsonObject } from '../../wire/json-object.ts';
import { DURATION_PATTERN, MAX_TIMEOUT_MS } from '../duration.ts';
import type { SettingLocation } from './policy-settings.ts';
import { parseJsonText } from '../../wire/json-text.ts';
import { formatJsonPath, type SettingsIssue } from './settings-issue.ts';
import { SETTINGS_LIMITS, settingsTooLargeIssue } from './settings-limits.ts';
import type { SettingsLayer } from './settings-layer.ts';
import { trustFingerprint } from './hook-identity.ts';

/** A tool call's deadline when the server's settings give no `timeout`: 10 minutes. */
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 600_000;

/** Connecting and listing the tools of a server, when its settings give no `startupTimeout`: 30 s. */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 30_000;

/** Servers in one `mcpServers` object. */
export const MAX_MCP_SERVERS = 100;

/** A server started as a child process speaking MCP over stdin/stdout. */
export interface McpStdioServerConfig {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added over the inherited environment (after `${VAR}` expansion). */
  readonly env: Readonly<Record<string, string>>;
  /** Working directory; relative to the project directory. Default: the project directory. */
  readonly cwd?: string;
  readonly timeoutMs: number;
  readonly startupTimeoutMs: number;
  readonly disabled: boolean;
  readonly description?: string;
}

/** A server reached over MCP's streamable HTTP transport. */
export interface McpHttpServerConfig {
  readonly type: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly startupTimeoutMs: number;
  readonly disabled: boolean;
  readonly description?: string;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** One configured server: its name, its configuration and where it was written. */
export interface McpServerEntry extends SettingLocation {
  readonly name: string;
  readonly config: McpServerConfig;
  /** The trust-record key of this server as written (see `mcpServerFingerprint`). */
  readonly fingerprint: string;
}

const stringRecord = z.record(z.string(), z.string());
const durationValue = z.union([z.number().positive(), z.string().regex(DURATION_PATTERN)]);

/**
 * The JSON Schema side of one server (for `schemas/settings.schema.json`); loading checks the
 * same rules by hand (`readMcpServers`) to word each issue with its fix.
 */
export const mcpServerSchema = z
  .strictObject({
    type: z.enum(['stdio', 'http']).optional().meta({
      description: '"stdio" (default when "command" is given) or "http" (streamable HTTP).',
    }),
    command: z.string().optional().meta({ description: 'stdio: the program to start.' }),
    args: z.array(z.string()).optional().meta({ description: 'stdio: its arguments.' }),
    env: stringRecord.optional().meta({
      description: 'stdio: variables added over the inherited environment; ${VAR} expands.',
    }),
    cwd: z.string().optional().meta({
      description: 'stdio: the working directory, relative to the project directory.',
    }),
    url: z.string().optional().meta({ description: 'http: the MCP endpoint URL.' }),
    httpUrl: z
      .string()
      .optional()
      .meta({ description: 'Gemini CLI: same as "type": "http" + "url".' }),
    headers: stringRecord.optional().meta({
      description: 'http: request headers (e.g. Authorization); ${VAR} expands.',
    }),
    timeout: durationValue.optional().meta({
      description:
        'A tool call\'s deadline: milliseconds (number, as in Gemini CLI) or a duration ("2m"). Default 10 minutes.',
    }),
    startupTimeout: durationValue.optional().meta({
      description:
        'Deadline to connect and list the tools: milliseconds or a duration. Default 30 s.',
    }),
    disabled: z.boolean().optional().meta({ description: 'true: configured but not started.' }),
    description: z.string().optional().meta({ description: 'A note on the server.' }),
  })
  .meta({ id: 'SettingsMcpServer', description: 'An MCP server (stdio or streamable HTTP).' });

export const mcpServersSchema = z.record(z.string(), mcpServerSchema).meta({
  description:
    'MCP servers by name; their tools join the tool list as mcp__NAME__TOOL. From files inside the project they start once trusted.',
});

const SERVER_FIELDS = Object.keys(mcpServerSchema.shape);
const NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * The trust-record key of a server: SHA-256 of `{mcpServer: NAME, config}` with every field that
 * changes what runs or where it connects (the whole normalized config but `description`), so
 * renaming the file or editing the description keeps the trust and changing the command does not.
 */
export function mcpServerFingerprint(name: string, config: McpServerConfig): string {
  const { description: _description, ...identity } = config;
  return trustFingerprint({ mcpServer: name, config: identity });
}

/** Milliseconds of a `timeout`/`startupTimeout`: a number is milliseconds, a string has its unit. */
function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DURATION_PATTERN.exec(value);
  if (match === null) return undefined;
  const units: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const ms = Math.round(Number(match[1]) * (units[match[2] ?? 's'] ?? 1000));
  return ms > 0 ? ms : undefined;
}

function stringMap(
  value: unknown,
  at: readonly (string | number)[],
  push: (path: readonly (string | number)[], message: string, fix: string) => void,
): Record<string, string> {
  if (value === undefined) return {};
  if (!isJsonObject(value)) {
    push(
      at,
      `${String(at[at.length - 1])} must be an object of strings`,
      'write {"NAME": "value"}',
    );
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, member] of Object.entries(value)) {
    if (typeof member === 'string') out[key] = member;
    else push([...at, key], 'must be a string', 'write the value in double quotes');
  }
  return out;
}

/**
 * Reads the `mcpServers` object of a settings file or `.mcp.json` (`raw` is the whole file's
 * JSON); appends what is wrong to `issues` (each with its JSON path and fix) and returns the
 * servers that are valid, in document order.
 */
export function readMcpServers(
  raw: unknown,
  origin: { readonly file: string; readonly layer: SettingsLayer },
  issues: SettingsIssue[],
): McpServerEntry[] {
  const { file, layer } = origin;
  if (!isJsonObject(raw) || raw.mcpServers === undefined) return [];
  const push = (path: readonly (string | number)[], message: string, fix: string): void => {
    issues.push({ file, path: formatJsonPath(path), message, fix });
  };
  const servers = raw.mcpServers;
  if (!isJsonObject(servers)) {
    push(
      ['mcpServers'],
      'mcpServers must be an object of servers by name',
      'write {"mcpServers": {"NAME": {"command": "…"}}}',
    );
    return [];
  }
  const names = Object.keys(servers);
  if (names.length > MAX_MCP_SERVERS) {
    push(
      ['mcpServers'],
      `${names.length} servers, more than the limit of ${MAX_MCP_SERVERS}`,
      'keep the servers you use',
    );
    return [];
  }
  const entries: McpServerEntry[] = [];
  for (const name of names) {
    const at = ['mcpServers', name];
    const before = issues.length;
    const server = servers[name];
    if (!NAME_PATTERN.test(name) || name.includes('__')) {
      push(
        at,
        `server name ${JSON.stringify(name)} cannot be part of a tool name`,
        'use letters, digits, "-" and "_" (no "__"): its tools are named mcp__NAME__TOOL',
      );
    }
    if (!isJsonObject(server)) {
      push(
        at,
        'a server must be an object',
        'write {"command": "…", "args": […]} or {"type": "http", "url": "…"}',
      );
      continue;
    }
    for (const key of Object.keys(server))
      if (!SERVER_FIELDS.includes(key))
        push(
          [...at, key],
          `unknown field ${JSON.stringify(key)} in an MCP server`,
          `remove it (a server accepts ${SERVER_FIELDS.map((field) => JSON.stringify(field)).join(', ')})`,
        );
    const url = server.url ?? server.httpUrl;
    const type =
      server.type ??
      (server.httpUrl !== undefined || (server.command === undefined && url !== undefined)
        ? 'http'
        : 'stdio');
    if (type !== 'stdio' && type !== 'http') {
      push(
        [...at, 'type'],
        `server type ${JSON.stringify(type)} is not supported`,
        'write "type": "stdio" (with "command") or "type": "http" (with "url"); SSE-only servers are not supported',
      );
      continue;
    }
    const timeouts: Record<'timeout' | 'startupTimeout', number> = {
      timeout: DEFAULT_MCP_TOOL_TIMEOUT_MS,
      startupTimeout: DEFAULT_MCP_STARTUP_TIMEOUT_MS,
    };
    for (const key of ['timeout', 'startupTimeout'] as const) {
      if (server[key] === undefined) continue;
      const ms = durationMs(server[key]);
      if (ms === undefined || ms > MAX_TIMEOUT_MS)
        push(
          [...at, key],
          `${key} ${JSON.stringify(server[key])} is not a duration`,
          'write milliseconds (30000) or a duration with its unit ("30s", "2m")',
        );
      else timeouts[key] = ms;
    }
    if (server.disabled !== undefined && typeof server.disabled !== 'boolean')
      push([...at, 'disabled'], 'disabled must be true or false', 'write true or false');
    if (server.description !== undefined && typeof server.description !== 'string')
      push(
        [...at, 'description'],
        'description must be a string',
        'write the note in double quotes',
      );
    const common = {
      timeoutMs: timeouts.timeout,
      startupTimeoutMs: timeouts.startupTimeout,
      disabled: server.disabled === true,
      ...(typeof server.description === 'string' ? { description: server.description } : {}),
    };
    let config: McpServerConfig | undefined;
    if (type === 'stdio') {
      for (const key of ['url', 'httpUrl', 'headers'])
        if (server[key] !== undefined)
          push(
            [...at, key],
            `${key} belongs to an HTTP server, not a stdio one`,
            'remove it, or write "type": "http" and leave out "command"',
          );
      if (typeof server.command !== 'string' || server.command.trim() === '') {
        push(
          [...at, 'command'],
          server.command === undefined
            ? 'missing required field "command"'
            : 'command must be a non-empty string',
          'write the program that starts the server, e.g. "command": "node", "args": ["server.js"]',
        );
        continue;
      }
      let args: string[] = [];
      if (server.args !== undefined) {
        if (!Array.isArray(server.args) || !server.args.every((arg) => typeof arg === 'string'))
          push([...at, 'args'], 'args must be a list of strings', 'write ["--flag", "value"]');
        else args = server.args;
      }
      const env = stringMap(server.env, [...at, 'env'], push);
      if (server.cwd !== undefined && typeof server.cwd !== 'string')
        push(
          [...at, 'cwd'],
          'cwd must be a string',
          'write the directory, relative to the project directory',
        );
      config = {
        type: 'stdio',
        command: server.command,
        args,
        env,
        ...(typeof server.cwd === 'string' ? { cwd: server.cwd } : {}),
        ...common,
      };
    } else {
      for (const key of ['command', 'args', 'env', 'cwd'])
        if (server[key] !== undefined)
          push(
            [...at, key],
            `${key} belongs to a stdio server, not an HTTP one`,
            'remove it, or leave out "type": "http"',
          );
      if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
        push(
          [...at, server.url === undefined && server.httpUrl !== undefined ? 'httpUrl' : 'url'],
          url === undefined
            ? 'missing required field "url"'
            : `url ${JSON.stringify(url)} is not an http(s) URL`,
          'write the server\'s MCP endpoint, e.g. "url": "http://127.0.0.1:8080/mcp"',
        );
        continue;
      }
      config = {
        type: 'http',
        url,
        headers: stringMap(server.headers, [...at, 'headers'], push),
        ...common,
      };
    }
    if (issues.length > before) continue;
    entries.push({
      name,
      config,
      fingerprint: mcpServerFingerprint(name, config),
      layer,
      file,
      path: formatJsonPath(at),
    });
  }
  return entries;
}

/**
 * Expands `${VAR}` and `${VAR:-default}` from `env` (Claude Code's `.mcp.json` rule). A variable
 * that is not set and has no default is an error naming it, so a server never starts with an
 * empty token silently.
 */
export function expandVariables(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly missing: string } {
  let missing: string | undefined;
  const expanded = text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      missing ??= name;
      return '';
    },
  );
  return missing === undefined ? { ok: true, text: expanded } : { ok: false, missing };
}

export { MCP_JSON_FILE } from './settings-layer.ts';

/**
 * Reads the text of a `.mcp.json` (`{"mcpServers": {…}}`, optionally `$schema`): its servers
 * (layer `project`: they are repository code and need trust) and every issue, worded like a
 * settings file's.
 */
export function readMcpJsonText(
  text: string,
  file: string,
): { readonly servers: readonly McpServerEntry[]; readonly issues: readonly SettingsIssue[] } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return { servers: [], issues: [] };
  if (Buffer.byteLength(body, 'utf8') > SETTINGS_LIMITS.maxBytes)
    return { servers: [], issues: [settingsTooLargeIssue(file, Buffer.byteLength(body, 'utf8'))] };
  const parsed = parseJsonText(body, { maxDepth: SETTINGS_LIMITS.maxDepth });
  if (!parsed.ok) {
    const { error } = parsed;
    return {
      servers: [],
      issues: [
        {
          file,
          path: '',
          line: error.line,
          column: error.column,
          message: `invalid JSON at line ${error.line}, column ${error.column}: ${error.message}`,
          fix: error.fix,
        },
      ],
    };
  }
  const raw = parsed.value;
  const issues: SettingsIssue[] = [];
  if (!isJsonObject(raw)) {
    issues.push({
      file,
      path: '',
      message: '.mcp.json must be a JSON object',
      fix: 'write {"mcpServers": {"NAME": {"command": "…"}}}',
    });
    return { servers: [], issues };
  }
  for (const key of Object.keys(raw))
    if (key !== 'mcpServers' && key !== '$schema')
      issues.push({
        file,
        path: formatJsonPath([key]),
        message: `unknown field ${JSON.stringify(key)} in .mcp.json`,
        fix: 'remove it (.mcp.json holds "mcpServers"; hooks belong in .hookwire/settings.json)',
      });
  const servers = readMcpServers(raw, { file, layer: 'project' }, issues);
  return { servers, issues };
}
