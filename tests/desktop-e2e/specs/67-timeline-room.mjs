// timeline, room to read: the filter bar folds into one line and the chart
// hides (the choice survives leaving the screen), which at 800×600 gives the
// list the room the bar and chart took; and an agent renamed from the
// one-agent view is named so everywhere, read back from hookd's registry.
// Its agent records its own events in alpha, so the spec runs alone too
// (HOOKD_E2E_ONLY=room). See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const AGENT = 'e2e-room';

export default async function ({ browser, test, shot, axe, theme, emit, repo }) {
  const textOf = (el) => browser.execute((e) => e.textContent, el);
  const go = (hash) => browser.execute((h) => { window.location.hash = h; }, hash);
  /** Rows wholly inside the list's viewport. */
  const visibleRows = () =>
    browser.execute(() => {
      const list = document.getElementById('timeline-list');
      const box = list.getBoundingClientRect();
      return [...list.querySelectorAll('.vrow:not([hidden])')].filter((r) => {
        const b = r.getBoundingClientRect();
        return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
      }).length;
    });
  const layoutOf = () => browser.execute(() => localStorage.getItem('hookd.timeline.layout'));
  const payload = (hook, extra) => ({ session_id: AGENT, cwd: repo, hook_event_name: hook, ...extra });
  /** One Write of room-N.md by the spec's agent, through the real hookd-emit. */
  const write = (n) =>
    emit('post_tool_use', payload('PostToolUse', {
      tool_name: 'Write',
      tool_use_id: `toolu_room_${n}`,
      tool_input: { file_path: path.join(repo, `room-${n}.md`), content: `# Room ${n}\n` },
      tool_response: { success: true },
    }));

  await test('the filter bar folds into one line, the chart hides, and the list gets the room', async () => {
    // More rows than any of these viewports holds.
    emit('user_prompt_submit', payload('UserPromptSubmit', { prompt: 'Keep a log of the room' }));
    for (let n = 0; n < 40; n++) write(n);
    await go(`#/timeline?repo=${repo}`);
    await browser.$('#timeline-list .vrow[data-testid="timeline-row"]').waitForExist({ timeout: 10000 });
    await browser.waitUntil(async () => Number(await browser.$('#timeline-list').getAttribute('data-total')) >= 40, { timeout: 10000 });
    const original = await browser.getWindowSize();
    let sized = false;
    try {
      await browser.setWindowSize(800, 600);
      await browser.waitUntil(async () => (await browser.execute(() => window.innerHeight)) <= 600, { timeout: 5000 });
      sized = true;
    } catch (err) {
      console.log(`e2e: cannot resize the window (${err.message.split('\n')[0]}); measuring at ${original.width}×${original.height}`);
    }
    try {
      const size = await browser.execute(() => `${window.innerWidth}×${window.innerHeight}`);
      // Shown: the bar and the chart as before; without the new toolbar line
      // too, which is the screen as it was before it could fold.
      if ((await browser.$('#filter-toggle').getAttribute('aria-expanded')) !== 'true') await browser.$('#filter-toggle').click();
      if ((await browser.$('#chart-toggle').getAttribute('aria-expanded')) !== 'true') await browser.$('#chart-toggle').click();
      await browser.pause(300);
      const before = await visibleRows();
      await browser.execute(() => { document.getElementById('timeline-toolbar').hidden = true; });
      await browser.pause(300);
      const old = await visibleRows();
      await browser.execute(() => { document.getElementById('timeline-toolbar').hidden = false; });

      await browser.$('#filter-toggle').click();
      await browser.$('#chart-toggle').click();
      assert.equal(await browser.$('#timeline-filters').isDisplayed(), false, 'the filter bar is folded');
      assert.equal(await browser.$('#timeline-chart').isDisplayed(), false, 'the chart is hidden');
      assert.match(await textOf(await browser.$('[data-testid="filter-summary"]')), /\S/);
      await browser.pause(300);
      const after = await visibleRows();
      console.log(`e2e: timeline rows in view at ${size}: ${old} as before (no toolbar line), ${before} with the filter bar and chart shown, ${after} folded`);
      assert.ok(after >= before + 5, `folding gives the list room: ${before} rows before, ${after} after`);
      assert.deepEqual(JSON.parse(await layoutOf()), { filters: false, chart: false });
      if (sized) await shot(browser, 'timeline-compact');

      // Leaving the screen and coming back keeps the choice.
      await go('#/projects');
      await browser.$('#project-list').waitForExist({ timeout: 5000 });
      await go(`#/timeline?repo=${repo}&tool=Write`);
      await browser.$('#filter-toggle').waitForExist({ timeout: 5000 });
      await browser.waitUntil(async () => /Tool Write/.test(await textOf(await browser.$('[data-testid="filter-summary"]'))), { timeout: 5000 });
      assert.equal(await browser.$('#filter-toggle').getAttribute('aria-expanded'), 'false');
      assert.equal(await browser.$('#timeline-chart').isDisplayed(), false);

      // Enter on the summary line shows the bar again.
      await browser.execute(() => document.getElementById('filter-toggle').focus());
      await browser.keys('Enter');
      await browser.$('#timeline-filters').waitForDisplayed({ timeout: 5000 });
      await browser.$('#chart-toggle').click();
      await browser.$('#timeline-chart').waitForDisplayed({ timeout: 5000 });
    } finally {
      // The later specs' screenshots are taken at the default size.
      if (sized) await browser.setWindowSize(original.width, original.height);
    }
  });

  await test('an agent renamed from its activity is shown by that name, and the name is kept', async () => {
    await go(`#/timeline?repo=${repo}&agent=${AGENT}&mode=activity`);
    const rename = await browser.$('#agent-rename-open');
    await rename.waitForDisplayed({ timeout: 10000, timeoutMsg: 'the one-agent view offers Rename' });
    await rename.click();
    const input = await browser.$('#agent-rename-input');
    await input.waitForDisplayed({ timeout: 5000 });
    await input.setValue('Notes writer');
    await shot(browser, 'timeline-rename');
    // axe (WCAG 2.1 AA, as spec 93 on every screen) on the rename dialog, both themes.
    for (const dark of [true, false]) {
      await theme(browser, dark);
      await axe(browser, `Agent rename dialog (${dark ? 'dark' : 'light'})`);
    }
    await browser.$('#agent-rename-save').click();
    await browser
      .waitUntil(async () => (await textOf(await browser.$('#filter-agent-chip'))) === 'Agent Notes writer', { timeout: 5000 })
      .catch(async () => {
        const seen = await browser.execute(() =>
          ['filter-agent-chip', 'agent-rename-error'].map((id) => document.getElementById(id)?.textContent ?? '(none)').join(' | '),
        );
        throw new Error(`the chip does not show the new name (chip | dialog error): ${seen}`);
      });
    const cells = await browser.$$('[data-testid="activity-row"]:not([hidden]) .agent-link').map((c) => browser.execute((e) => e.textContent, c));
    // One agent's view hides the agent column when narrow; the cells hold the name either way.
    assert.ok(cells.length > 0 && cells.every((t) => t === 'Notes writer'), `rows show the name: ${cells}`);

    // The name lives in hookd's registry: a fresh view (every project, file changes) reads it back.
    await go(`#/timeline?repo=${repo}`);
    await browser.waitUntil(
      async () =>
        (await browser.$$(`[data-testid="timeline-row"]:not([hidden]) .agent-link[data-agent="${AGENT}"]`).map((c) => browser.execute((e) => e.textContent, c))).includes(
          'Notes writer',
        ),
      { timeout: 10000, timeoutMsg: 'the file-changes list does not name the agent' },
    );
    await go(`#/timeline?repo=${repo}&agent=${AGENT}&mode=activity`);
    await browser.waitUntil(async () => (await textOf(await browser.$('#filter-agent-chip'))) === 'Agent Notes writer', { timeout: 10000 });
  });

  await test('nothing is clipped at the default 1100 px: time with seconds, the mode switch, hook commands', async () => {
    assert.equal((await browser.getWindowSize()).width, 1100);
    await go(`#/timeline?repo=${repo}`);
    await browser.$('#timeline-list .vrow[data-testid="timeline-row"]').waitForExist({ timeout: 10000 });
    /** Elements matching `selector` whose text does not fit their box, by text. */
    const clipped = (selector) =>
      browser.execute((sel) => {
        return [...document.querySelectorAll(sel)]
          .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
          .map((e) => e.textContent);
      }, selector);
    const times = await browser.execute(() => [...document.querySelectorAll('#timeline-list .vrow:not([hidden]) .col-time')].map((e) => e.textContent));
    assert.ok(times.length > 0 && times.every((t) => /\d\d:\d\d:\d\d$/.test(t)), `times show seconds: ${times.slice(0, 3)}`);
    assert.deepEqual(await clipped('#timeline-list .vrow:not([hidden]) .col-time'), [], 'no time is cut off');
    // The mode switch wholly inside the window, each button's text whole.
    const modes = await browser.execute(() =>
      [...document.querySelectorAll('#timeline-mode .mode-button')].map((b) => {
        const r = b.getBoundingClientRect();
        return { text: b.textContent, inside: r.left >= 0 && r.right <= window.innerWidth, whole: b.scrollWidth <= b.clientWidth + 1 };
      }),
    );
    assert.deepEqual(modes, [
      { text: 'File changes', inside: true, whole: true },
      { text: 'All activity', inside: true, whole: true },
    ]);

    // A hook with a long command and a matcher of three tools, in the
    // project's local agent settings (put back as they were afterwards).
    const local = path.join(repo, '.claude', 'settings.local.json');
    const kept = fs.existsSync(local) ? fs.readFileSync(local, 'utf8') : null;
    const settings = kept === null ? {} : JSON.parse(kept);
    const command = '/usr/local/share/hookd-e2e/project_hooks/format-and-lint-the-changed-files.sh --changed-only --max_line_length=120';
    settings.hooks = {
      ...(settings.hooks ?? {}),
      PreToolUse: [...(settings.hooks?.PreToolUse ?? []), { matcher: 'Write|Edit|MultiEdit', hooks: [{ type: 'command', command }] }],
    };
    fs.mkdirSync(path.dirname(local), { recursive: true });
    fs.writeFileSync(local, `${JSON.stringify(settings, null, 2)}\n`);
    try {
      // The Effective view: commands wrap, none overflows its cell; the whole text is the tooltip.
      await go(`#/hooks?project=${repo}&tab=effective`);
      await browser.waitUntil(
        async () => browser.execute((cmd) => [...document.querySelectorAll('[data-testid="effective-hook"]')].some((r) => r.dataset.command === cmd), command),
        { timeout: 10000, timeoutMsg: 'the Effective view lists the long command' },
      );
      assert.deepEqual(await clipped('#hooks-effective-table td'), [], 'no Effective cell overflows');
      const tips = await browser.execute(() =>
        [...document.querySelectorAll('#hooks-effective-table td.hooks-summary')].every((td) => td.title !== '' && td.textContent.endsWith(td.title)),
      );
      assert.ok(tips, 'each command cell has its whole text as tooltip');
      await shot(browser, 'hooks-effective-long');

      // The Test bench's match list (a Write): the hook commands are whole.
      await go(`#/bench?project=${repo}&event=PreToolUse`);
      const sample = await browser.$('#bench-sample');
      await browser.waitUntil(async () => (await browser.execute((el) => [...el.options].map((o) => o.value), sample)).includes('write'), {
        timeout: 10000,
        timeoutMsg: 'the samples are loaded',
      });
      await sample.selectByAttribute('value', 'write');
      await browser.waitUntil(
        async () => browser.execute((cmd) => [...document.querySelectorAll('[data-testid="bench-hook-command"]')].some((c) => c.textContent === cmd), command),
        { timeout: 10000, timeoutMsg: 'the match list shows the long command' },
      );
      assert.deepEqual(await clipped('#bench-match-list td, [data-testid="bench-hook-command"]'), [], 'no match-list cell overflows');
      await browser.execute(() => document.getElementById('bench-match-title')?.scrollIntoView({ block: 'start' }));
      await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
      await shot(browser, 'bench-matches');
    } finally {
      if (kept === null) fs.rmSync(local, { force: true });
      else fs.writeFileSync(local, kept);
    }
  });
}
