/**
 * The dialects: one `Dialect` object per other tool (`dialect-contract.ts`), one folder each,
 * listed once here. Adding a Claude-shaped dialect is its folder and one line below (and its
 * name in `vocabulary.ts`'s `DialectName`, with its tool names).
 */
import type { HookEventName, RegisteredEventName } from '../../events/index.ts';
import type { Dialect } from './dialect-contract.ts';
import { claudeDialect } from './claude/claude-dialect.ts';
import { codexDialect } from './codex/codex-dialect.ts';
import { geminiDialect } from './gemini/gemini-dialect.ts';
import { kimiDialect } from './kimi/kimi-dialect.ts';
import { copilotDialect } from './copilot/copilot-dialect.ts';
import { cursorDialect } from './cursor/cursor-dialect.ts';
import { windsurfDialect } from './windsurf/windsurf-dialect.ts';
import { claudeShapedDialect } from './claude-shaped/claude-shaped-dialect.ts';
import { CLAUDE_PROFILES } from './claude-shaped/profiles.ts';
import type { DialectName } from './vocabulary.ts';

export type { DialectName } from './vocabulary.ts';
export type { Dialect } from './dialect-contract.ts';
export { DIALECT_NAMES } from './vocabulary.ts';

/** The per-dialect rules: the `Dialect` object (kept under its earlier name). */
export type DialectRules = Dialect;

/** Every foreign dialect, by name: one folder each. */
export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  claude: claudeDialect,
  gemini: geminiDialect,
  codex: codexDialect,
  kimi: kimiDialect,
  copilot: copilotDialect,
  cursor: cursorDialect,
  windsurf: windsurfDialect,
  // The Claude-shaped family: one profile each (`claude-shaped/profiles.ts`).
  factory: claudeShapedDialect('factory', CLAUDE_PROFILES.factory),
  augment: claudeShapedDialect('augment', CLAUDE_PROFILES.augment),
  codebuddy: claudeShapedDialect('codebuddy', CLAUDE_PROFILES.codebuddy),
  qwen: claudeShapedDialect('qwen', CLAUDE_PROFILES.qwen),
};

/** The hookwire event a dialect's event name stands for, or `undefined`. */
export function dialectEvent(dialect: DialectName, name: string): HookEventName | undefined {
  return Object.hasOwn(DIALECTS[dialect].events, name) ? DIALECTS[dialect].events[name] : undefined;
}

/** The name a dialect's hook is registered under (what it gets as `hook_event_name`). */
export function registeredName(name: string): RegisteredEventName {
  return name as RegisteredEventName;
}
