/**
 * Confinement for the processes hookwire starts for the model (the `shell` tool) and, when their
 * settings ask, for command hooks: an environment without credentials, and a bubblewrap
 * (`bwrap`) sandbox. Both work by rewriting the shell command the runner starts (`/bin/sh -c
 * COMMAND`): the new command `exec`s `env -u …` or `bwrap … /bin/sh -c COMMAND`, so the process
 * group, the deadline, the output caps and the kill sequence of the runner apply unchanged.
 */
import { constants, realpathSync, statSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, sep } from 'node:path';

/**
 * Variable names that hold credentials (any case): `*_API_KEY`/`*APIKEY`, `*_TOKEN`,
 * `*_SECRET*`, `*PASSWORD*` and `*PASSWD*` (`PGPASSWORD`), `*_PWD` (`MYSQL_PWD`; not `PWD`, the
 * working directory), `*PRIVATE_KEY*` (`SSH_PRIVATE_KEY`), `*_PAT` (`GITHUB_PAT`), `*_KEY`
 * (`STRIPE_KEY`), and `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`. A variable of any name whose
 * value is a URL carrying a password (`DATABASE_URL=postgres://u:p@h/db`) is one too
 * (`isCredentialValue`). `passEnvironment` keeps a named one on purpose.
 */
export const CREDENTIAL_NAME_PATTERNS: readonly RegExp[] = [
  /(?:^|_)API_?KEY$/i,
  /(?:^|_)TOKEN$/i,
  /(?:^|_)SECRET/i,
  /PASSWORD/i,
  /PASSWD/i,
  /_PWD$/i,
  /PRIVATE_?KEY/i,
  /_PAT$/i,
  /_KEY$/i,
  /^AWS_SECRET_ACCESS_KEY$/i,
  /^AWS_SESSION_TOKEN$/i,
];

/** Whether a variable name looks like a credential (`CREDENTIAL_NAME_PATTERNS`). */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME_PATTERNS.some((pattern) => pattern.test(name));
}

/** A URL with a password in its user info: `scheme://user:password@host…`. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i;

/** Whether a variable's value is a credential whatever its name: a URL carrying a password. */
export function isCredentialValue(value: string): boolean {
  return URL_WITH_PASSWORD.test(value.trim());
}

/**
 * The variables of `env` to remove for a process without credentials: every name that looks
 * like a credential, every value that is one (a URL with a password), and every other variable
 * holding the same value as one of those (a key copied under an innocent name, such as the key
 * hookwire itself was given); minus `pass`, the names the user chose to pass
 * (`passEnvironment`). Sorted.
 */
export function credentialVariables(
  env: Readonly<Record<string, string | undefined>>,
  pass: readonly string[] = [],
): string[] {
  const passed = new Set(pass);
  const secrets = new Set<string>();
  const names = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || passed.has(name)) continue;
    if (!isCredentialName(name) && !isCredentialValue(value)) continue;
    names.add(name);
    if (value.length >= 8) secrets.add(value);
  }
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !passed.has(name) && secrets.has(value)) names.add(name);
  }
  return [...names].sort();
}

/** How `bwrap` confines a process. */
export interface SandboxOptions {
  /**
   * Directories the process may write (the project directory and the added ones); everything
   * else is read-only, and `/tmp` is a private, empty tmpfs.
   */
  readonly writableDirectories: readonly string[];
  /**
   * Files inside the writable directories that stay read-only (the scripts of trusted hooks, so
   * the sandboxed shell cannot rewrite what the hooks run): `--ro-bind-try`, so a file deleted
   * since it was listed is skipped.
   */
  readonly readOnlyFiles?: readonly string[];
  /** Keep the network (`--sandbox-network`). Default false: a private network namespace, no interfaces but loopback. */
  readonly network?: boolean;
  /** The bwrap executable. Default `bwrap` (from PATH). */
  readonly bwrap?: string;
}

/** How to start one command. */
export interface ProcessConfinement {
  /** Variables to remove from the process's environment (see `credentialVariables`). */
  readonly unsetEnv?: readonly string[];
  /** Run it under bubblewrap. */
  readonly sandbox?: SandboxOptions;
}

/** `text` as one single-quoted POSIX shell word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The bwrap arguments that hold for every sandbox: a user namespace with no capability (so root
 * outside is an ordinary user inside: no remount, no `mount`, no raw sockets, no DAC override),
 * its own PID and IPC namespaces, a new session (no `TIOCSTI` into the terminal), and death with
 * the parent. The uid stays the caller's (root stays uid 0 inside, without capabilities), so the
 * project's files keep their owner and stay writable by it.
 */
export const BWRAP_ISOLATION_ARGUMENTS: readonly string[] = [
  '--unshare-user',
  '--cap-drop',
  'ALL',
  '--unshare-pid',
  '--unshare-ipc',
  '--new-session',
  '--die-with-parent',
];

/** Whether `path` is `directory` or lies beneath it (both absolute, normalised). */
function isWithin(path: string, directory: string): boolean {
  return (
    path === directory || path.startsWith(directory.endsWith(sep) ? directory : directory + sep)
  );
}

/** The real path of an existing directory, or `undefined`. */
function realDirectory(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The host directories where Unix sockets of other programs live, which a sandbox hides under an
 * empty tmpfs: `/run` and `/var/run` (docker, podman, containerd, dbus, systemd), the user's
 * `$XDG_RUNTIME_DIR`, the directory of the ssh agent's `$SSH_AUTH_SOCK` and of a `unix://`
 * `$DOCKER_HOST`, and `~/.docker/run` (Docker Desktop); `/tmp/.X11-unix` is hidden by the private
 * `/tmp` already. Real paths, existing directories only, without duplicates; never `/`, the home
 * directory or one of its ancestors (that would hide the user's files: a socket placed directly
 * there stays reachable), nor one inside a writable directory (the project's own sockets).
 * Abstract sockets (`@name`) belong to the network namespace: hidden unless `--sandbox-network`.
 */
export function hostSocketDirectories(
  writableDirectories: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const home = realDirectory(env['HOME'] ?? homedir()) ?? '';
  const candidates = ['/run', '/var/run', join(home || homedir(), '.docker', 'run')];
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime !== undefined && isAbsolute(runtime)) candidates.push(runtime);
  const agent = env['SSH_AUTH_SOCK'];
  if (agent !== undefined && isAbsolute(agent)) candidates.push(dirname(agent));
  const docker = /^unix:\/\/(\/.+)$/.exec(env['DOCKER_HOST'] ?? '')?.[1];
  if (docker !== undefined) candidates.push(dirname(docker));
  const writable = writableDirectories.map((directory) => realDirectory(directory) ?? directory);
  const masked: string[] = [];
  for (const candidate of candidates) {
    const real = realDirectory(candidate);
    if (real === undefined || real === '/' || masked.includes(real)) continue;
    if (home !== '' && isWithin(home, real)) continue;
    if (isWithin(real, '/tmp')) continue;
    if (writable.some((directory) => isWithin(real, directory))) continue;
    masked.push(real);
  }
  return masked;
}

/** The bwrap arguments (before the command) that `sandbox` means, for a process in `cwd`. */
export function bwrapArguments(
  sandbox: SandboxOptions,
  cwd: string,
  unsetEnv: readonly string[] = [],
): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const masked = hostSocketDirectories(sandbox.writableDirectories);
  for (const directory of masked) args.push('--tmpfs', directory);
  if (sandbox.network === true) {
    // The name server's address may live under /run (systemd-resolved): keep that one file.
    const resolver = realFile('/etc/resolv.conf');
    if (resolver !== undefined && masked.some((directory) => isWithin(resolver, directory)))
      args.push('--ro-bind', resolver, resolver);
  }
  // After the tmpfs mounts, so a project under /tmp (or /run) is the real one, writable.
  for (const directory of sandbox.writableDirectories) args.push('--bind', directory, directory);
  // After the writable binds, which they lie inside.
  for (const file of sandbox.readOnlyFiles ?? []) args.push('--ro-bind-try', file, file);
  if (sandbox.network !== true) args.push('--unshare-net');
  args.push(...BWRAP_ISOLATION_ARGUMENTS, '--chdir', cwd);
  for (const name of unsetEnv) args.push('--unsetenv', name);
  return args;
}

/** The real path of an existing file, or `undefined`. */
function realFile(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The shell command that runs `command` confined: unchanged when there is nothing to do; else
 * `exec env -u NAME… /bin/sh -c COMMAND`, or `exec bwrap ARGS… /bin/sh -c COMMAND` (bwrap
 * unsets the variables itself). `cwd` is where the command runs (bwrap's `--chdir`).
 */
export function confineCommand(
  command: string,
  cwd: string,
  confinement: ProcessConfinement,
): string {
  const unset = confinement.unsetEnv ?? [];
  const inner = `/bin/sh -c ${shellQuote(command)}`;
  if (confinement.sandbox !== undefined) {
    const bwrap = confinement.sandbox.bwrap ?? 'bwrap';
    return `exec ${[bwrap, ...bwrapArguments(confinement.sandbox, cwd, unset)].map(shellQuote).join(' ')} ${inner}`;
  }
  if (unset.length === 0) return command;
  return `exec env ${unset.map((name) => `-u ${shellQuote(name)}`).join(' ')} ${inner}`;
}

/** How to install bubblewrap, for the messages of `--sandbox` and `"sandbox": true`. */
export const BWRAP_INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), or run without --sandbox';

/** The absolute path of `bwrap` on `PATH`, or `undefined`. */
export async function findBwrap(path = process.env.PATH ?? ''): Promise<string | undefined> {
  for (const directory of path.split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, 'bwrap');
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Checks that bubblewrap is installed and can create its namespaces here (some containers
 * forbid user namespaces) by running `bwrap … true` once. Resolves to the executable, or rejects
 * with an `Error` whose message says what is wrong and how to fix it.
 */
export async function checkBwrap(path = process.env.PATH ?? ''): Promise<string> {
  const bwrap = await findBwrap(path);
  if (bwrap === undefined)
    throw new Error(
      `--sandbox needs bubblewrap (bwrap), which is not on PATH: ${BWRAP_INSTALL_HINT}`,
    );
  const probe = spawn(
    bwrap,
    ['--ro-bind', '/', '/', '--unshare-net', ...BWRAP_ISOLATION_ARGUMENTS, '/bin/true'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  probe.stderr.setEncoding('utf8');
  probe.stderr.on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => {
    probe.on('error', () => {
      resolve(-1);
    });
    probe.on('close', resolve);
  });
  if (code !== 0)
    throw new Error(
      `--sandbox: bubblewrap (${bwrap}) cannot create a sandbox here: ${stderr.trim() || `exit ${String(code)}`}. Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run without --sandbox`,
    );
  return bwrap;
}
