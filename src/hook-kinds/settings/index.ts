/**
 * Command-hook settings: the settings file shape and its JSON Schema, timeouts, matchers, the
 * settings layers and how they merge. Every export here is public API.
 */
export {
  DEFAULT_TIMEOUT_MS,
  DURATION_PATTERN,
  MAX_TIMEOUT_MS,
  formatDuration,
  parseTimeout,
} from '../duration.ts';
export type { TimeoutResult } from '../duration.ts';
export { duplicateKey, hookGroupsFor, mergeSettingsFiles } from './effective-settings.ts';
export type {
  EffectivePermissions,
  EffectiveSettings,
  HookTrust,
  IgnoredHookGroup,
  IgnoredKind,
  IgnoredSetting,
  MergeTrust,
  SettingsFileStatus,
} from './effective-settings.ts';
export {
  COSMETIC_HOOK_FIELDS,
  hookFingerprint,
  hookIdentity,
  settingFingerprint,
} from './hook-identity.ts';
export type { HookIdentityGroup } from './hook-identity.ts';
export type {
  FilePolicySettings,
  LocatedRule,
  LocatedValue,
  SettingLocation,
} from './policy-settings.ts';
export {
  TrustStoreError,
  projectKey,
  readTrustStore,
  trustStoreFile,
  trustedFingerprints,
  updateTrustStore,
} from './trust-store.ts';
export type { TrustStore, TrustedHookEntry } from './trust-store.ts';
export type { CommandHookConfig, HookGroupConfig } from './hook-config.ts';
export { listEffectiveHooks } from './list-effective-hooks.ts';
export type { EffectiveHookRow } from './list-effective-hooks.ts';
export { fileNeedsTrust, isInsideDirectory, loadSettings } from './load-settings.ts';
export type { LoadSettingsOptions } from './load-settings.ts';
export { compileMatcher, tryCompileMatcher } from './matcher.ts';
export type { CompiledMatcher, MatcherLocation, MatcherResult } from './matcher.ts';
export { defaultHookName, parseSettingsText, readSettingsText } from './parse-settings-text.ts';
export type {
  AgentTypeSetting,
  ParsedSettingsFile,
  SettingsTextOrigin,
  SettingsTextResult,
} from './parse-settings-text.ts';
export { SettingsError, formatSettingsIssues } from './settings-error.ts';
export { MAX_LISTED_ISSUES, SETTINGS_LIMITS } from './settings-limits.ts';
export { formatIssueLocation, formatJsonPath } from './settings-issue.ts';
export type { SettingsIssue } from './settings-issue.ts';
export {
  DEFAULT_MANAGED_SETTINGS_FILE,
  SETTINGS_LAYERS,
  settingsSources,
} from './settings-layer.ts';
export type {
  SettingsDiscoveryOptions,
  SettingsEnvironment,
  SettingsLayer,
  SettingsSource,
} from './settings-layer.ts';
export { settingsFileSchema, settingsJsonSchema } from './settings-schema.ts';
export type { SettingsFile } from './settings-schema.ts';
