/** Gemini CLI's hooks (`.gemini/settings.json`), with its model hooks and MCP servers. */
import { HOOK_EVENT_ALIASES, type HookEventName } from '../../../events/index.ts';
import type { Dialect } from '../dialect-contract.ts';
import {
  GEMINI_MODEL_EVENTS,
  alignGeminiOutcome,
  geminiModelAnswer,
  geminiModelPayload,
} from './gemini-model.ts';
import { geminiMcpServers } from './gemini-mcp-servers.ts';

/** Gemini CLI's events: its aliases of hookwire's events and the names it shares with them. */
const GEMINI_EVENTS: Readonly<Record<string, HookEventName>> = {
  ...(HOOK_EVENT_ALIASES as Readonly<Record<string, HookEventName>>),
  BeforeModel: 'BeforeModel',
  AfterModel: 'AfterModel',
  BeforeToolSelection: 'BeforeToolSelection',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
};

export const geminiDialect: Dialect = {
  name: 'gemini',
  title: 'Gemini CLI',
  sources: [
    { layer: 'user', under: 'home', path: ['.gemini', 'settings.json'] },
    { layer: 'project', under: 'project', path: ['.gemini', 'settings.json'] },
  ],
  layout: 'events',
  hooksConfig: true,
  hookFields: ['type', 'command', 'timeout', 'name', 'description', 'env'],
  groupFields: ['matcher', 'hooks', 'sequential'],
  timeoutUnit: 'milliseconds',
  defaultTimeoutMs: 60_000,
  jsonBeforeExitCode: true,
  killedHookDenies: true,
  shell: 'bash',
  events: GEMINI_EVENTS,
  payloadExtras: {},
  modelHooks: {
    events: GEMINI_MODEL_EVENTS,
    payload: geminiModelPayload,
    answer: geminiModelAnswer,
    align: alignGeminiOutcome,
  },
  mcpServers: geminiMcpServers,
};
