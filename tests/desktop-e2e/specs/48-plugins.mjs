// plugins, skills and agents: hooks from outside the settings files. A
// real plugin install in the test HOME, as Claude Code records it
// (installed_plugins.json, the plugin's hooks/hooks.json, enabledPlugins in
// ~/.claude/settings.json): the Effective view lists its hooks read-only
// with the plugin's name and version, event, matcher, what runs and the
// hooks.json path, and a disabled plugin's hooks as not running, with why.
// A project skill's and a user subagent's frontmatter hooks are listed the
// same way, with whose they are and that they run only while active (a
// subagent's Stop runs as SubagentStop); a frontmatter that does not parse
// is a warning. Everything it writes in HOME is put back afterwards.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, makeRepo, env }) {
  const dir = makeRepo('plugins');
  const home = env('HOME');
  const claude = path.join(home, '.claude');
  const registry = path.join(claude, 'plugins', 'installed_plugins.json');
  const settings = path.join(claude, 'settings.json');
  const go = (hash) => browser.execute((h) => { window.location.hash = h; }, hash);

  /** Installs `id` at `version` with `hooks`, as Claude Code does; returns its folder. */
  function install(installed, id, version, hooks) {
    const [name, market] = id.split('@');
    const folder = path.join(claude, 'plugins', 'cache', market, name, version);
    fs.mkdirSync(path.join(folder, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'hooks', 'hooks.json'), `${JSON.stringify({ hooks }, null, 2)}\n`);
    installed.plugins[id] = [{ scope: 'user', installPath: folder, version }];
    return folder;
  }

  await test('plugins: the Effective view lists plugin hooks read-only with their plugin, a disabled plugin\u2019s as not running', async () => {
    const keptRegistry = fs.existsSync(registry) ? fs.readFileSync(registry, 'utf8') : null;
    const keptSettings = fs.existsSync(settings) ? fs.readFileSync(settings, 'utf8') : null;
    try {
      const installed = { version: 2, plugins: {} };
      const guard = install(installed, 'secret-guard@acme-tools', '1.4.2', {
        PreToolUse: [{ matcher: 'Write|Edit|MultiEdit', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/check-secrets.sh --staged-only', timeout: 20 }] }],
      });
      const notes = install(installed, 'session-notes@acme-tools', '0.9.0', {
        Stop: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/bin/write-notes' }] }],
      });
      fs.mkdirSync(path.dirname(registry), { recursive: true });
      fs.writeFileSync(registry, `${JSON.stringify(installed, null, 2)}\n`);
      const user = keptSettings === null ? {} : JSON.parse(keptSettings);
      user.enabledPlugins = { ...(user.enabledPlugins ?? {}), 'secret-guard@acme-tools': true, 'session-notes@acme-tools': false };
      fs.writeFileSync(settings, `${JSON.stringify(user, null, 2)}\n`);

      await go(`#/hooks?project=${dir}&tab=effective`);
      await browser.waitUntil(async () => (await browser.$$('[data-testid="plugin-hook"]').length) === 2, { timeout: 10000, timeoutMsg: 'the two plugin hooks are listed' });
      assert.equal(await browser.$('#hooks-sources-title').getText(), 'Plugins, skills and agents');
      const rows = await browser.execute(() =>
        [...document.querySelectorAll('[data-testid="plugin-hook"]')].map((r) => ({
          ...r.dataset,
          cells: [...r.querySelectorAll('td')].map((td) => td.textContent),
          source: r.querySelector('[data-testid="plugin-source"]').dataset.path,
          // Why it does not run: in its row, or in the row of reasons under it.
          reasons: [...r.querySelectorAll('[data-testid="runs-reason"]'), ...(r.nextElementSibling?.dataset.testid === 'effective-reasons' ? r.nextElementSibling.querySelectorAll('[data-testid="runs-reason"]') : [])].map((li) => li.textContent),
        })),
      );
      assert.deepEqual(rows[0].cells, [
        'Pluginsecret-guard@acme-tools 1.4.2',
        'PreToolUse',
        'Write|Edit|MultiEdit',
        '${CLAUDE_PLUGIN_ROOT}/scripts/check-secrets.sh --staged-only',
        '✓ enabled',
        path.join(guard, 'hooks', 'hooks.json'),
      ]);
      assert.equal(rows[0].enabled, 'true');
      assert.equal(rows[1].plugin, 'session-notes@acme-tools');
      assert.equal(rows[1].enabled, 'false');
      assert.equal(rows[1].source, path.join(notes, 'hooks', 'hooks.json'));
      assert.match(rows[1].cells[4], /^✗ does not run/);
      assert.match(rows[1].reasons.join(' '), /session-notes@acme-tools is not enabled for this project/);
      const controls = await browser.execute(() => document.querySelectorAll('#hooks-effective-sources input, #hooks-effective-sources button, #hooks-effective-sources select').length);
      assert.equal(controls, 0, 'read-only');
      await browser.execute(() => document.getElementById('hooks-effective-sources')?.scrollIntoView({ block: 'start' }));
      await shot(browser, 'hooks-effective-plugins');
    } finally {
      if (keptRegistry === null) fs.rmSync(registry, { force: true });
      else fs.writeFileSync(registry, keptRegistry);
      if (keptSettings === null) fs.rmSync(settings, { force: true });
      else fs.writeFileSync(settings, keptSettings);
    }
  });

  await test('skills and agents: their frontmatter hooks are listed read-only, running only while active, and a broken one is a warning', async () => {
    const skill = path.join(dir, '.claude', 'skills', 'lint-on-save', 'SKILL.md');
    const broken = path.join(dir, '.claude', 'agents', 'broken.md');
    const agent = path.join(claude, 'agents', 'reviewer.md');
    try {
      fs.mkdirSync(path.dirname(skill), { recursive: true });
      fs.writeFileSync(skill, '---\nname: lint-on-save\ndescription: Lints what was written\nhooks:\n  PostToolUse:\n    - matcher: "Write|Edit"\n      hooks:\n        - type: command\n          command: ./scripts/lint-changed.sh --fix\n          once: true\n---\nLint the files you change.\n');
      fs.mkdirSync(path.dirname(broken), { recursive: true });
      fs.writeFileSync(broken, '---\nname: [unclosed\n---\n');
      fs.mkdirSync(path.dirname(agent), { recursive: true });
      fs.writeFileSync(agent, '---\nname: reviewer\ndescription: Reviews a change\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ~/.claude/bin/summarise-review.sh\n---\nReview the change.\n');

      await go(`#/hooks?project=${dir}&tab=effective`);
      await browser.waitUntil(async () => (await browser.$$('[data-testid="component-hook"]').length) === 2, { timeout: 10000, timeoutMsg: 'the skill\u2019s and the agent\u2019s hooks are listed' });
      const rows = await browser.execute(() =>
        [...document.querySelectorAll('[data-testid="component-hook"]')].map((r) => ({ ...r.dataset, cells: [...r.querySelectorAll('td')].map((td) => td.textContent) })),
      );
      assert.deepEqual(rows[0].cells, ['Agent · userreviewer', 'Stop runs as SubagentStop', '', '~/.claude/bin/summarise-review.sh', '✓ while active', agent]);
      assert.deepEqual(rows[1].cells, ['Skill · projectlint-on-save', 'PostToolUse', 'Write|Edit', './scripts/lint-changed.sh --fixonce', '✓ while active', '.claude/skills/lint-on-save/SKILL.md']);
      assert.match(await browser.$('#hooks-effective-sources').getText(), /run only while that skill or agent is active/);
      const problem = await browser.$('[data-testid="component-problem"]');
      assert.equal(await problem.getAttribute('data-path'), broken);
      assert.match(await problem.getText(), /^\.claude\/agents\/broken\.md: its frontmatter is not valid YAML/);
      const controls = await browser.execute(() => document.querySelectorAll('#hooks-effective-sources input, #hooks-effective-sources button, #hooks-effective-sources select').length);
      assert.equal(controls, 0, 'read-only');
      await browser.execute(() => document.getElementById('hooks-effective-sources')?.scrollIntoView({ block: 'start' }));
      await shot(browser, 'hooks-effective-skills-agents');
    } finally {
      fs.rmSync(agent, { force: true });
      fs.rmSync(path.join(dir, '.claude', 'skills'), { recursive: true, force: true });
      fs.rmSync(path.join(dir, '.claude', 'agents'), { recursive: true, force: true });
    }
  });
}
