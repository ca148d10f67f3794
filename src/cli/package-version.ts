import { packageManifest } from '../supervision/package-files.ts';

/** The `version` of hookwire's package.json. */
export function packageVersion(): string {
  const version = packageManifest()['version'];
  return typeof version === 'string' ? version : '0.0.0';
}
