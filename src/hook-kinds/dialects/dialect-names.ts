/**
 * The names of the dialects (the other tools whose hook files hookwire reads): a leaf module (it
 * imports nothing), so the kind contract and the settings types can name a dialect without
 * reaching any dialect's code.
 */

/** A dialect: the tool a settings file was written for. `hookwire` is hookwire's own. */
export type DialectName =
  | 'claude'
  | 'gemini'
  | 'codex'
  | 'kimi'
  | 'copilot'
  | 'cursor'
  | 'windsurf'
  | 'factory'
  | 'augment'
  | 'codebuddy'
  | 'qwen';

/** Every foreign dialect, in the order their layers load. */
export const DIALECT_NAMES: readonly DialectName[] = [
  'claude',
  'gemini',
  'codex',
  'kimi',
  'copilot',
  'cursor',
  'windsurf',
  'factory',
  'augment',
  'codebuddy',
  'qwen',
];

/**
 * The project-directory variables the dialects' hooks read, each set to the project directory for
 * every hook (`hookEnvironment`), as the tools set them: the same scripts run unchanged.
 */
export const PROJECT_DIR_VARIABLES: readonly string[] = [
  'CLAUDE_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
  'FACTORY_PROJECT_DIR',
  'CODEBUDDY_PROJECT_DIR',
];
