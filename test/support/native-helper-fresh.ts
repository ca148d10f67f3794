/**
 * Vitest global setup: the tests run the native spawn helper from native/build/, which
 * `npm ci` / `npm run build` compile. After a rebase that changed native/hookwire-spawn.c (its
 * protocol with helper-runner.ts included), a binary built from the old source would be run
 * against the new runner; so when the binary is missing or older than its source, it is rebuilt
 * here first (scripts/build-native.mjs: without a C compiler it says so and the Node helper runs).
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../native/hookwire-spawn.c', import.meta.url));
const binary = fileURLToPath(new URL('../../native/build/hookwire-spawn', import.meta.url));
const script = fileURLToPath(new URL('../../scripts/build-native.mjs', import.meta.url));

function modified(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

export default function setup(): void {
  const built = modified(binary);
  if (built !== undefined && built >= (modified(source) ?? 0)) return;
  const result = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('scripts/build-native.mjs failed');
}
