import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsError } from '../settings/settings-error.ts';
import { loadSettings } from '../settings/load-settings.ts';
import { discoverPlugins, findPlugins } from './plugin-directory.ts';
import { pluginContentHash, pluginFingerprint } from './plugin-fingerprint.ts';

let root: string;
let projectDir: string;
let home: string;
let env: { HOOKWIRE_HOME: string; HOOKWIRE_MANAGED_SETTINGS: string };

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'hookwire-plugins-')));
  projectDir = join(root, 'project');
  home = join(root, 'home');
  env = { HOOKWIRE_HOME: home, HOOKWIRE_MANAGED_SETTINGS: join(root, 'managed.json') };
  await mkdir(projectDir, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(file: string, content: unknown): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function plugin(
  directory: string,
  manifest: unknown,
  folder = '.claude-plugin',
): Promise<string> {
  await write(join(directory, folder, 'plugin.json'), manifest);
  return directory;
}

describe('findPlugins', () => {
  it('finds --plugin-dir (inline), the plugins setting and enabled installed plugins, in that order', async () => {
    const flag = await plugin(join(root, 'flagged'), { name: 'flagged', version: '1.0.0' });
    const named = await plugin(join(projectDir, 'tools', 'named'), { name: 'named' });
    const installed = await plugin(join(home, '.claude', 'plugins', 'cache', 'm', 'guard', '2'), {
      name: 'guard',
    });
    const other = await plugin(join(home, '.claude', 'plugins', 'cache', 'm', 'off', '1'), {
      name: 'off',
    });
    await write(join(home, '.claude', 'plugins', 'installed_plugins.json'), {
      version: 2,
      plugins: {
        'guard@market': [{ scope: 'user', installPath: installed, version: '2' }],
        'off@market': [{ scope: 'user', installPath: other, version: '1' }],
      },
    });
    const plugins = await findPlugins({
      projectDir,
      pluginDirs: [flag],
      settings: [
        { directory: 'tools/named', file: 'settings.json', path: 'plugins[0]', layer: 'user' },
      ],
      enabledPlugins: new Map([
        ['guard@market', { enabled: true, file: 's.json', layer: 'user' as const }],
        ['off@market', { enabled: false, file: 's.json', layer: 'user' as const }],
      ]),
      env,
    });
    expect(plugins).toEqual([
      {
        name: 'flagged',
        root: flag,
        inline: true,
        manifest: { name: 'flagged', version: '1.0.0' },
        origin: 'flag',
        flavour: 'claude',
      },
      {
        name: 'named',
        root: named,
        inline: false,
        manifest: { name: 'named' },
        origin: 'setting',
        flavour: 'claude',
      },
      {
        name: 'guard',
        root: installed,
        inline: false,
        manifest: { name: 'guard' },
        origin: 'installed',
        flavour: 'claude',
      },
    ]);
  });

  it('reads version 1 of installed_plugins.json, and a project-scoped installation only for its project', async () => {
    const v1 = await plugin(join(root, 'v1'), { name: 'one' });
    const elsewhere = await plugin(join(root, 'elsewhere'), { name: 'scoped' });
    await write(join(home, '.claude', 'plugins', 'installed_plugins.json'), {
      version: 1,
      plugins: { 'one@m': { installPath: v1 } },
    });
    const enabled = (keys: string[]) =>
      new Map(keys.map((key) => [key, { enabled: true, file: 'f', layer: 'user' as const }]));
    expect(
      (await findPlugins({ projectDir, enabledPlugins: enabled(['one@m']), env }))[0]?.root,
    ).toBe(v1);

    await write(join(home, '.claude', 'plugins', 'installed_plugins.json'), {
      version: 2,
      plugins: {
        'scoped@m': [
          { scope: 'project', projectPath: join(root, 'other'), installPath: elsewhere },
        ],
      },
    });
    const found = await discoverPlugins({ projectDir, enabledPlugins: enabled(['scoped@m']), env });
    expect(found.plugins).toEqual([]);
    expect(found.warnings.join('\n')).toMatch(
      /enabledPlugins\["scoped@m"\] is on, but no such plugin is installed/,
    );
  });

  it('names a plugin without a manifest after its directory, and reads .codex-plugin and .cursor-plugin manifests', async () => {
    const bare = join(root, 'bare-plugin');
    await mkdir(join(bare, 'hooks'), { recursive: true });
    const codex = await plugin(join(root, 'cx'), { name: 'codex-one' }, '.codex-plugin');
    const cursor = await plugin(join(root, 'cu'), { name: 'cursor-one' }, '.cursor-plugin');
    const found = await discoverPlugins({ projectDir, pluginDirs: [bare, codex, cursor], env });
    expect(found.plugins.map((p) => [p.plugin.name, p.plugin.flavour, p.plugin.manifest])).toEqual([
      ['bare-plugin', 'claude', {}],
      ['codex-one', 'codex', { name: 'codex-one' }],
      ['cursor-one', 'cursor', { name: 'cursor-one' }],
    ]);
  });

  it('loads a directory named twice (even through a link) once, and the first plugin of a name wins with a warning', async () => {
    const first = await plugin(join(root, 'a'), { name: 'same' });
    const second = await plugin(join(root, 'b'), { name: 'same' });
    await symlink(first, join(root, 'link'));
    const found = await discoverPlugins({
      projectDir,
      pluginDirs: [first, join(root, 'link'), second],
      env,
    });
    expect(found.plugins.map((p) => p.plugin.root)).toEqual([first]);
    expect(found.warnings).toEqual([
      expect.stringMatching(
        /plugin "same" at .*\/b .* is not loaded: the plugin of that name at .*\/a/,
      ),
    ]);
  });

  it('fails loudly on a missing directory and every invalid manifest, naming the file, the JSON path and the fix', async () => {
    const badJson = await plugin(join(root, 'bad-json'), '{"name": "x",');
    const noName = await plugin(join(root, 'no-name'), { version: '1' });
    const escaping = await plugin(join(root, 'escaping'), {
      name: 'esc',
      hooks: '../elsewhere.json',
    });
    const wrongType = await plugin(join(root, 'wrong'), { name: 'wrong', agents: [3] });
    const error = await findPlugins({
      projectDir,
      pluginDirs: [join(root, 'missing'), badJson, noName, escaping, wrongType],
      settings: [
        { directory: 'nope', file: '/s/settings.json', path: 'plugins[2]', layer: 'user' },
      ],
      env,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SettingsError);
    const issues = (error as SettingsError).issues;
    expect(issues.map((issue) => [issue.file, issue.path])).toEqual([
      [`--plugin-dir ${join(root, 'missing')}`, ''],
      [join(badJson, '.claude-plugin', 'plugin.json'), ''],
      [join(noName, '.claude-plugin', 'plugin.json'), 'name'],
      [join(escaping, '.claude-plugin', 'plugin.json'), 'hooks'],
      [join(wrongType, '.claude-plugin', 'plugin.json'), 'agents[0]'],
      ['/s/settings.json', 'plugins[2]'],
    ]);
    expect(issues[1]?.line).toBe(1);
    expect(issues[2]?.fix).toMatch(/set "name" to the plugin's kebab-case name, e\.g\. "no-name"/);
    expect(issues[3]?.message).toMatch(/is not a path inside the plugin/);
    expect((error as Error).message).toMatch(
      /does not exist; fix: give --plugin-dir the directory/,
    );
  });

  it('skips an installed plugin whose directory is gone with a warning, and ignores unknown manifest fields', async () => {
    const kept = await plugin(join(root, 'kept'), { name: 'kept', someFutureField: { a: 1 } });
    await write(join(home, '.claude', 'plugins', 'installed_plugins.json'), {
      version: 2,
      plugins: {
        'gone@m': [{ scope: 'user', installPath: join(root, 'gone') }],
        'kept@m': [{ scope: 'user', installPath: kept }],
      },
    });
    const found = await discoverPlugins({
      projectDir,
      enabledPlugins: new Map([
        ['gone@m', { enabled: true, file: 'f', layer: 'user' as const }],
        ['kept@m', { enabled: true, file: 'f', layer: 'user' as const }],
      ]),
      env,
    });
    expect(found.plugins.map((p) => p.plugin.name)).toEqual(['kept']);
    expect(found.warnings.join('\n')).toMatch(/gone does not exist: this plugin is not loaded/);
  });
});

describe('plugins in loadSettings', () => {
  it("takes the plugins setting from hookwire's files and enabledPlugins from Claude Code's, the last layer deciding", async () => {
    const installed = await plugin(join(root, 'inst'), { name: 'guard' });
    const mine = await plugin(join(root, 'mine'), { name: 'mine' });
    await write(join(home, '.claude', 'plugins', 'installed_plugins.json'), {
      version: 2,
      plugins: { 'guard@m': [{ scope: 'user', installPath: installed }] },
    });
    await write(join(home, '.hookwire', 'settings.json'), {
      plugins: [mine],
      enabledPlugins: { 'guard@m': false },
    });
    await write(join(home, '.claude', 'settings.json'), { enabledPlugins: { 'guard@m': true } });
    const settings = await loadSettings({ projectDir, env });
    expect(settings.plugins.map((p) => [p.name, p.origin])).toEqual([
      ['mine', 'setting'],
      ['guard', 'installed'],
    ]);
    // --no-dialects reads no Claude Code file, so its enabledPlugins does not count.
    const without = await loadSettings({ projectDir, env, dialects: false });
    expect(without.plugins.map((p) => p.name)).toEqual(['mine']);
  });

  it('a plugin inside the project, or named by a project file, loads once its content is trusted, and not after a change', async () => {
    const inside = await plugin(join(projectDir, 'plugins', 'inside'), { name: 'inside' });
    await write(join(inside, 'hooks', 'hooks.json'), { hooks: {} });
    const outside = await plugin(join(root, 'outside'), { name: 'outside' });
    await write(join(projectDir, '.hookwire', 'settings.json'), { plugins: [outside] });
    const none = { trusted: new Set<string>(), trustAll: false };
    const untrusted = await loadSettings({ projectDir, env, trust: none, pluginDirs: [inside] });
    expect(untrusted.plugins).toEqual([]);
    expect(untrusted.untrustedPlugins.map((u) => [u.plugin.name, u.reason])).toEqual([
      ['inside', expect.stringMatching(/inside the project/)],
      ['outside', expect.stringMatching(/named by .*settings\.json, a file inside the project/)],
    ]);
    const fingerprints = untrusted.untrustedPlugins.map((u) => u.fingerprint);
    expect(fingerprints[0]).toBe(pluginFingerprint('inside', await pluginContentHash(inside)));
    const trust = { trusted: new Set(fingerprints), trustAll: false };
    const trusted = await loadSettings({ projectDir, env, trust, pluginDirs: [inside] });
    expect(trusted.plugins.map((p) => p.name)).toEqual(['inside', 'outside']);
    // One byte changed anywhere in the plugin untrusts it.
    await write(join(inside, 'hooks', 'hooks.json'), { hooks: {}, x: 1 });
    const changed = await loadSettings({ projectDir, env, trust, pluginDirs: [inside] });
    expect(changed.plugins.map((p) => p.name)).toEqual(['outside']);
    // A plugin of the user's own (outside the project, named by the user's flag) needs no trust.
    const elsewhere = join(root, 'another-project');
    await mkdir(elsewhere);
    const own = await loadSettings({
      projectDir: elsewhere,
      env,
      trust: none,
      pluginDirs: [outside],
    });
    expect(own.plugins.map((p) => p.name)).toEqual(['outside']);
  });

  it('rejects a plugins setting that is not a list of directories, naming the JSON path', async () => {
    await write(join(home, '.hookwire', 'settings.json'), { plugins: 'x' });
    await expect(loadSettings({ projectDir, env })).rejects.toThrow(/plugins/);
  });
});
