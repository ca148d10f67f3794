/**
 * Bundles the `hookwire` command (dist/cli/main.js, compiled by tsc) into dist/bin/, the file
 * package.json's `bin` names. Run by `npm run build` after tsc.
 *
 * Why: started from dist/cli/main.js, `hookwire run` loads about 390 ES modules (hookwire's own,
 * zod's, commander's), and resolving, reading and linking them one by one costs several times
 * Node's own start-up. The bundle is a handful of files: one for what every command needs and one
 * chunk per lazily imported command or kind, so `hookwire --version` still loads almost nothing.
 * Heavy dependencies that the command imports only on demand (the provider SDKs, the MCP SDK,
 * OpenTelemetry, ajv) stay external and are loaded from node_modules when a run needs them.
 * The library entry points (`hookwire`, `hookwire/ai-sdk`, …) are not bundled: they stay the
 * tsc output in dist/, so an application's own bundler sees the modules.
 *
 * Scripts hookwire starts as processes of their own are entries too, beside the chunks that start
 * them (each is found next to its starter's module): the Node spawn helper
 * (`dist/bin/spawn-helper.js`), the orphan watchdog (`dist/bin/orphan-watchdog.js`) and the shell
 * analysis (`dist/bin/shell-analysis-process.js`). After
 * bundling, every `new URL('./NAME…', import.meta.url)` in the output must name a file that is
 * there, or the build fails: a script left out would fail only when a user needed it.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bin');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Loaded on demand only, and large: left to node_modules.
const external = [
  /^node:module$/, // the other built-ins: see `builtins` below
  /^openai(\/|$)/,
  /^@anthropic-ai\//,
  /^@google\//,
  /^@modelcontextprotocol\//,
  /^@opentelemetry\//,
  /^ajv(\/|$)/,
  /^ai(\/|$)/,
  /^@ai-sdk\//,
  // The shell analysis's parser: loaded on first use, and it finds its wasm files beside itself.
  /^web-tree-sitter(\/|$)/,
  /^tree-sitter-bash(\/|$)/,
];
for (const name of Object.keys(pkg.dependencies ?? {})) {
  if (
    !['commander', 'zod', 'smol-toml', 'tinyglobby'].includes(name) &&
    !external.some((pattern) => pattern.test(name))
  )
    throw new Error(`bundle-cli: dependency ${name} is neither bundled nor external; decide which`);
}

/**
 * Node's built-in modules without their ES module facades. `import { readFileSync } from
 * 'node:fs'` makes Node build an ES module mirroring every export of `fs` the first time any
 * module imports it, and reading every export runs lazy getters (`fs.ReadStream` loads the whole
 * streams implementation): a dozen built-ins cost milliseconds per start. Each `node:` import is
 * served instead by a small module that takes the names the bundle uses from
 * `process.getBuiltinModule` (or `require` on a Node.js 22 older than 22.3); names nothing uses
 * are dropped with the rest of the dead code, so no getter runs that nobody asked for.
 *
 * The built-ins in `LAZY` are not even loaded until the bundle uses them: a function export is a
 * stand-in that loads the module on the first call, a class a proxy that loads it on the first
 * `new`, `instanceof` or static read, and the default export (what a CommonJS `require` gets) a
 * proxy that loads it on the first property read. Loading `node:child_process` (which commander
 * requires at start-up for executable subcommands hookwire does not have) costs about 6 ms,
 * `node:crypto` 13 ms, `node:net` (the spawn helper's socket) a few more; a run that spawns
 * nothing and hashes nothing pays none of it. Other values (`constants`) are read when the chunk
 * that uses them loads.
 *
 * zod is served the same way: the bundle's `z` is a proxy, and the first `z.…` call loads zod,
 * bundled on its own as `dist/bin/zod.cjs`, with a synchronous `require`. hookwire builds its
 * schemas on first use (`src/wire/lazy.ts`), so a run whose hooks never answer (or that has no
 * hooks) never loads zod: about 12 ms of every start.
 */
const PREFIX = '\0hookwire-builtin:';
const LAZY = new Set([
  'node:child_process',
  'node:crypto',
  'node:net',
  'node:http',
  'node:https',
  'node:readline',
  'node:zlib',
  'node:dns',
  'node:tls',
  'node:worker_threads',
]);
const ZOD_ID = '\0hookwire-lazy:zod';

/**
 * A proxy standing in for the object `load` returns, loading it on first use. `target` is a
 * function for a class; `get` is the expression a property read answers with.
 */
function standIn(load, { target = '{}', get = `${load}[key]` } = {}) {
  return [
    `new Proxy(${target}, {`,
    `  get: (_, key) => ${get},`,
    `  has: (_, key) => key in ${load},`,
    ...(target === '{}'
      ? [
          `  ownKeys: () => Reflect.ownKeys(${load}),`,
          `  getOwnPropertyDescriptor: (_, key) => {`,
          `    const descriptor = Reflect.getOwnPropertyDescriptor(${load}, key);`,
          `    return descriptor === undefined ? undefined : { ...descriptor, configurable: true };`,
          `  },`,
        ]
      : [
          // new.target is the proxy (or a subclass): its prototype read goes to the real class's.
          `  construct: (_, args, newTarget) => Reflect.construct(${load}, args, newTarget),`,
          `  apply: (_, self, args) => Reflect.apply(${load}, self, args),`,
        ]),
    `})`,
  ].join('\n');
}

const builtins = {
  name: 'hookwire-builtins',
  resolveId(source) {
    if (source === 'zod') return { id: ZOD_ID, moduleSideEffects: false };
    if (!source.startsWith('node:') || source === 'node:module') return undefined;
    return { id: PREFIX + source, moduleSideEffects: false };
  },
  load(id) {
    if (id === ZOD_ID)
      return [
        `import { createRequire } from 'node:module';`,
        `let loaded;`,
        `const load = () => (loaded ??= createRequire(import.meta.url)('./zod.cjs').z);`,
        `const member = (key) => {`,
        `  const value = load()[key];`,
        `  if (value === undefined && typeof key === 'string')`,
        `    throw new Error(\`z.\${key} is not in dist/bin/zod.cjs: scripts/bundle-cli.mjs bundles the z.NAME members the sources spell out\`);`,
        `  return value;`,
        `};`,
        `export const z = /* @__PURE__ */ ${standIn('load()', { get: 'member(key)' })};`,
      ].join('\n');
    if (!id.startsWith(PREFIX)) return undefined;
    const name = id.slice(PREFIX.length);
    const module = process.getBuiltinModule(name);
    const names = Object.keys(module).filter(
      (key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default',
    );
    const source = JSON.stringify(name);
    const loader = `process.getBuiltinModule?.(${source}) ?? createRequire(import.meta.url)(${source})`;
    if (!LAZY.has(name))
      return [
        `import { createRequire } from 'node:module';`,
        `const m = ${loader};`,
        `export default m;`,
        ...names.map((key) => `export const ${key} = /* @__PURE__ */ (() => m.${key})();`),
      ].join('\n');
    const exportOf = (key) => {
      if (typeof module[key] !== 'function')
        return `export const ${key} = /* @__PURE__ */ (() => load().${key})();`;
      // Lower case: a function, called. Upper case: a class, constructed, extended or compared.
      if (/^[a-z]/.test(key))
        return `export function ${key}(...args) { return load().${key}(...args); }`;
      return `export const ${key} = /* @__PURE__ */ ${standIn(`load().${key}`, { target: 'function () {}' })};`;
    };
    return [
      `import { createRequire } from 'node:module';`,
      `let loaded;`,
      `const load = () => (loaded ??= ${loader});`,
      `export default /* @__PURE__ */ ${standIn('load()')};`,
      ...names.map(exportOf),
    ].join('\n');
  },
};

/** The version is known at build time: the bundle does not read package.json to print it. */
const inlineVersion = {
  name: 'hookwire-inline-version',
  load(id) {
    if (!id.replaceAll('\\', '/').endsWith('/dist/cli/package-version.js')) return undefined;
    return `export function packageVersion() { return ${JSON.stringify(pkg.version)}; }`;
  },
};

await rm(out, { recursive: true, force: true });
await build({
  input: {
    hookwire: join(root, 'dist', 'cli', 'main.js'),
    'spawn-helper': join(root, 'dist', 'supervision', 'spawn-helper.js'),
    'orphan-watchdog': join(root, 'dist', 'supervision', 'orphan-watchdog.js'),
    // Each Claude Code mod runs in a worker thread started from this file.
    'mod-worker': join(root, 'dist', 'host', 'mods', 'mod-worker.js'),
    'shell-analysis-process': join(
      root,
      'dist',
      'hooks',
      'permissions',
      'shell-analysis-process.js',
    ),
  },
  platform: 'node',
  external,
  plugins: [inlineVersion, builtins],
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
});
// The members of `z` the compiled sources use (every use is spelled `z.NAME`): only they are
// bundled, as zod's own tree-shaking would keep only them.
const zodMembers = [];
for (const file of await readdir(join(root, 'dist'), { recursive: true })) {
  if (!file.endsWith('.js') || file.startsWith('bin')) continue;
  const code = await readFile(join(root, 'dist', file), 'utf8');
  for (const [, member] of code.matchAll(/\bz\s*\.\s*([A-Za-z_$][\w$]*)/g))
    if (!zodMembers.includes(member)) zodMembers.push(member);
}
zodMembers.sort();
// zod on its own, required synchronously by the bundle's stand-in on the first `z.…` call.
await build({
  input: { zod: '\0hookwire-zod-entry' },
  platform: 'node',
  logLevel: 'warn',
  plugins: [
    {
      name: 'hookwire-zod-entry',
      resolveId: (source) => (source === '\0hookwire-zod-entry' ? source : undefined),
      load: (id) =>
        id === '\0hookwire-zod-entry'
          ? `import { z as zod } from 'zod';\nexport const z = { ${zodMembers.map((member) => `${member}: zod.${member}`).join(', ')} };`
          : undefined,
    },
  ],
  output: { dir: out, format: 'cjs', entryFileNames: '[name].cjs' },
});
const written = await readdir(out);
if (!written.includes('zod.cjs')) throw new Error('bundle-cli: dist/bin/zod.cjs was not written');
const missing = new Set();
for (const file of written) {
  const code = await readFile(join(out, file), 'utf8');
  for (const match of code.matchAll(/new URL\(\s*[`'"]\.\/([\w.-]+?)(\$\{|[`'"])/g)) {
    const name = match[1];
    const target = match[2] === '${' ? `${name}.js` : name;
    if (!written.includes(target)) missing.add(`${file} starts ./${target}`);
  }
}
if (missing.size > 0)
  throw new Error(
    `bundle-cli: files the bundle loads by URL are not in dist/bin: ${[...missing].join('; ')}; add them as entries`,
  );
console.log(`bundle-cli: dist/bin/hookwire.js (${written.length} files)`);
