/**
 * Builds the native spawn helper (native/hookwire-spawn.c → native/build/hookwire-spawn) and the
 * relay client (native/hookwire-relay.c → native/build/hookwire-relay) when a
 * C compiler (`cc`) exists; run by `npm install` (postinstall) and `npm run build`. Without a
 * compiler, or when the build fails, it says so in one line and exits 0: hookwire then uses the
 * Node spawn helper (same behaviour, a slower spawn; see docs/decisions/0008-process-containment.md).
 * Plain JavaScript, so it runs on every Node that installs hookwire. `--require` makes a missing compiler or a failed build an error (CI, where cc exists).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'native', 'hookwire-spawn.c');
const output = join(root, 'native', 'build', 'hookwire-spawn');
const required = process.argv.includes('--require');
const compiler = process.env['CC'] ?? 'cc';

function give(message) {
  console.log(`build-native: ${message}`);
  process.exit(required ? 1 : 0);
}

if (process.platform !== 'linux')
  give(`skipped on ${process.platform}: the Node spawn helper is used`);
if (spawnSync(compiler, ['--version'], { stdio: 'ignore' }).status !== 0) {
  give(`no C compiler (${compiler}): the Node spawn helper is used`);
}
mkdirSync(dirname(output), { recursive: true });
const partial = `${output}.partial`;
const build = spawnSync(compiler, ['-O2', '-Wall', '-pthread', '-o', partial, source], {
  encoding: 'utf8',
});
if (build.status !== 0) {
  give(`${compiler} failed, the Node spawn helper is used:\n${build.stderr.trim()}`);
}
renameSync(partial, output);
console.log(`build-native: built ${output}`);

// The relay client (docs/decisions/0035-relay-and-daemon.md); without it relay entries run the
// Node client (`hookwire relay hook`).
const relaySource = join(root, 'native', 'hookwire-relay.c');
const relayOutput = join(root, 'native', 'build', 'hookwire-relay');
const relay = spawnSync(compiler, ['-O2', '-Wall', '-o', `${relayOutput}.partial`, relaySource], {
  encoding: 'utf8',
});
if (relay.status !== 0) {
  give(`${compiler} failed on the relay client, the Node client is used:\n${relay.stderr.trim()}`);
}
renameSync(`${relayOutput}.partial`, relayOutput);
console.log(`build-native: built ${relayOutput}`);
