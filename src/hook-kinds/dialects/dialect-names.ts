/**
 * The dialects' names: a leaf module (it imports nothing), so the kind contract and the settings
 * types can name a dialect without reaching any dialect's code.
 */

/** A dialect: the tool a settings file was written for. `hookwire` is hookwire's own. */
export type DialectName =
  'claude' | 'gemini' | 'codex' | 'kimi' | 'copilot' | 'cursor' | 'windsurf';

/** Every foreign dialect, in the order their layers load. */
export const DIALECT_NAMES: readonly DialectName[] = [
  'claude',
  'gemini',
  'codex',
  'kimi',
  'copilot',
  'cursor',
  'windsurf',
];
