// What a person sees of @council in the real chat view: typed requests, clicked follow-up buttons,
// the rendered responses. Run by `npm run test:integration` (runWeb.mjs --pages-only); the fixture's
// "Council Test: …" commands make the scripted models play a council (fixture/src/demo.ts).
import { strict as assert } from 'node:assert';
import { runCommand } from './palette.mjs';

const TIMEOUT = 20_000;
/** The chat view (in the secondary side bar), its responses and the follow-up buttons under the last one. */
const CHAT = '.part.auxiliarybar .interactive-session';
const RESPONSES = `${CHAT} .interactive-item-container.interactive-response`;
const FOLLOWUPS = `${CHAT} .interactive-input-followups a.interactive-followup-reply`;
/** The last line of the final answer (its footer) and of a clarifying question: once shown, the rest is too. */
const FINAL_END = /debate cycles? · \d+ requests? · /;
const QUESTION_END = 'Reply with your answer, or use a button below.';

export default async function chatView(page, { log: print }) {
  const started = Date.now();
  const log = message => print(`page (${((Date.now() - started) / 1000).toFixed(1)} s): ${message}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  const ui = person(page);
  await ui.command('Chat: Open Chat');
  await page.locator(`${CHAT} .interactive-input-part`).getByText('Council Test Model').waitFor({ timeout: TIMEOUT }); // the picked model

  log('one question at a time; Accept, Skip; the final answer');
  await ui.command('Council Test: Play the Scripted Council');
  let text = await ui.ask('@council How should we store sessions?', QUESTION_END);
  assert.match(text, /Round 1 question 1: what matters most here\?\s+Recommended answer: Recommended answer 1\.1/);
  assert.equal(text.split('Clarifying question ·').length - 1, 1, `one question at a time:\n${text}`);
  assert.doesNotMatch(text, /question 2/, 'the next question is not shown yet');
  // The page workspace has a malformed persona file: the first response warns about it, outside the folded steps.
  await ui.unfolded('broken.md');
  assert.match(text, /⚠ \.council\/personas\/broken\.md: field "role": Missing `?role`?: add it\./);
  // …and an alias bomb next to it is named too, while the built-in personas still make the council.
  assert.match(text, /⚠ \.council\/personas\/bomb\.md: front matter: its YAML aliases .* expand too far/);
  text = await ui.clickFollowup('Accept recommended answer', QUESTION_END);
  assert.match(text, /Round 1 question 2: what matters most here\?\s+Recommended answer: Recommended answer 1\.2/);
  assert.doesNotMatch(text, /question 1:/);
  text = await ui.clickFollowup('Skip this question', FINAL_END);
  await ui.finalAnswerShown();
  assert.match(
    text,
    /The council's answer[\s\S]*Where each persona landed[\s\S]*Assumptions\s+Assumed: Recommended answer 1\.2/,
  );

  log('the final answer streams: its first words show while the rest is still being written');
  await ui.newChat();
  await ui.command('Council Test: Play a Scripted Council Whose Answer Streams Slowly');
  await ui.send('@council /debate Queue or cron for the nightly export?');
  await ui.lastResponse().getByText('Go with option B.').waitFor({ state: 'visible', timeout: TIMEOUT });
  const partial = await ui.lastResponse().locator('.value').innerText();
  assert.doesNotMatch(partial, /Measure the result\./, `the answer is shown before it is complete:\n${partial}`);
  await ui.lastResponse().getByText(FINAL_END).waitFor({ state: 'visible', timeout: TIMEOUT });
  await ui.finalAnswerShown();

  log('Stop during the debate, then Try again');
  await ui.newChat();
  await ui.command('Council Test: Play a Scripted Council Whose First Debate Turn Waits for Stop');
  await ui.send('@council Is Redis a good session store?');
  // The others' drafts show as each arrives; the first persona's waits for Stop.
  await ui.lastResponse().getByText('Software Architect · cycle 1').waitFor({ timeout: TIMEOUT });
  await page.locator(`${CHAT} .interactive-input-part a.codicon-stop-circle`).click();
  await ui.clickFollowup('Try again', FINAL_END);
  await ui.finalAnswerShown();

  log('a debate that never converges stops at council.debate.maxCycles, with a notice');
  await ui.setting('council.debate.maxCycles', '2');
  await ui.newChat();
  await ui.command('Council Test: Play a Scripted Council That Never Agrees');
  text = await ui.ask('@council /debate Tabs or spaces?', FINAL_END);
  assert.match(text, /⚠ Debate limit reached: the council debated for 2 cycles without fully converging/);
  await ui.lastResponse().getByText('⚠ Debate limit reached:').waitFor({ state: 'visible', timeout: TIMEOUT });
  await ui.finalAnswerShown();
  // What a person must see is outside "Completed N steps"; the full contributions stay folded there.
  await ui.unfolded('Council:');
  await ui.unfolded('The request touches design, implementation and security.');
  await ui.unfolded('Cycle 1:');
  await ui.unfolded('Cycle 2:');
  await ui.unfolded('⚠ Debate limit reached:');
  assert.match(text, /Cycle 2:.*Still contested/);
  await page.locator(`${FOLLOWUPS}:not([data-old])`, { hasText: 'Extend the debate' }).waitFor({ timeout: TIMEOUT });

  log('first drafts that all back one option: the answer at once, saying why, with the combined confidence');
  await ui.newChat();
  await ui.command('Council Test: Play a Scripted Council Whose First Drafts Agree');
  text = await ui.ask('@council /debate Signed cookies or server-side sessions?', FINAL_END);
  await ui.finalAnswerShown();
  await ui.unfolded('no debate needed');
  assert.match(
    text,
    /All 3 personas back option 2 \(server-side sessions in Redis\) with high or medium confidence: no debate needed\. \/extend debates anyway\./,
  );
  assert.match(text, /Combined confidence: Strong agreement: 3 of 3 back option 2/);
  assert.doesNotMatch(text, /Cycle 2:/);

  log('a settings problem is reported outside the folded steps');
  await ui.setting('council.debate.adminMaxCycles', '1'); // below maxCycles (2): a settings problem
  await ui.newChat();
  await ui.command('Council Test: Play the Scripted Council');
  await ui.ask('@council /debate Is Redis a good session store?', FINAL_END);
  await ui.unfolded('council.debate.maxCycles is 2, above council.debate.adminMaxCycles (1)');
  await ui.finalAnswerShown();
  log('a workflow checkpoint: its prompt, its options and the with-feedback button are outside the folded steps');
  await ui.newChat();
  await ui.command('Council Test: Play the Scripted Council');
  text = await ui.ask('@council /workflow notes Check the release notes', 'pick an option below');
  await ui.unfolded('Review notes are ready. How should we go on?');
  await ui.unfolded('Rewrite the notes, with feedback');
  await ui.unfolded('pick an option below');
  // The link puts the decision into the chat input, for the person to add the feedback and send.
  // A click that lands while the response is still rendering can be lost (seen under load): a person clicks again.
  for (let attempt = 1; ; attempt++) {
    await ui.lastResponse().getByText('Rewrite the notes, with feedback').last().click();
    const filled = await page
      .waitForFunction(
        selector =>
          /\/workflowdecide(?:wf|run)-[0-9a-f-]+2/.test(
            document.querySelector(selector)?.textContent?.replace(/\s+/g, '') ?? '',
          ),
        `${CHAT} .interactive-input-editor`,
        { timeout: TIMEOUT / 4 },
      )
      .then(
        () => true,
        () => false,
      );
    if (filled) break;
    assert.ok(attempt < 3, 'the link puts the decision into the chat input');
  }
  log('a gap-check escalation: the gaps, the question and every option are outside the folded steps');
  await ui.newChat();
  await ui.command('Council Test: Play the Scripted Council');
  await ui.ask('@council /workflow gaps Check the release notes', 'pick an option below');
  await ui.unfolded('The notes still have a gap. Continue anyway?');
  await ui.unfolded('The notes name no owner for the release');
  await ui.unfolded('Continue anyway');
  await ui.unfolded('Redo Draft notes, with feedback');
  log('a failed run: what went wrong, where, and Try again are outside the folded steps');
  await ui.newChat();
  await ui.ask('@council /workflow lost-write Save the notes', 'did not await it');
  await ui.unfolded('.council/workflows/lost-write.yaml, phase');
  await ui.unfolded('writeFile() failed and the script did not await it');
  await page
    .locator(`${FOLLOWUPS}:not([data-old])`, { hasText: 'Try again' })
    .waitFor({ state: 'visible', timeout: TIMEOUT });
  log("a /plan report: every ticket's proposed changes and its Apply link are outside the folded steps");
  await ui.newChat();
  await ui.command("Council Test: Play the Demo Council (npm start's sessions question and /plan)");
  // A checkpoint's last words, or the report's first (the resumed turns start with a "So far:" line of their own).
  const planTurnEnd = /stays resumable\)\.|The plan is complete/;
  text = await ui.ask('@council /plan Make sessions revocable', planTurnEnd);
  for (let step = 0; step < 4 && !/The plan is complete/.test(text); step++)
    text = await ui.clickFollowup('Continue', planTurnEnd);
  assert.match(text, /The plan is complete/);
  await ui.unfolded('Apply changes for T-1');
  await ui.unfolded('Apply changes for T-2');
  await ui.unfolded('Proposed changes for T-1');
  // The link runs the Apply command: its modal confirmation lists the files; dismissed, nothing is applied.
  await ui.lastResponse().getByText('Apply changes for T-1').last().click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.getByText('create src/sessionRevocation.ts').waitFor({ timeout: TIMEOUT });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
  log('chat view checks passed');
}

/**
 * The list index of the newest response in the chat view (-1 when none). The view is a virtualized list:
 * rows scrolled out of sight leave the DOM, so counting rendered responses can miss a new one. (The same
 * expression is inlined in `shown`, whose function runs in the page.)
 */
function newestResponse(selector) {
  return Math.max(
    -1,
    ...[...document.querySelectorAll(selector)].map(item =>
      Number(item.closest('[data-index]')?.getAttribute('data-index') ?? -1),
    ),
  );
}

/** The workbench as a person uses it: the command palette, the chat input, follow-up buttons, Settings. */
function person(page) {
  const responses = page.locator(RESPONSES);
  const lastResponse = () => responses.last();
  /** Marks the follow-up buttons on screen as old: the next response renders new ones. */
  const markFollowupsOld = () => page.$$eval(FOLLOWUPS, buttons => buttons.forEach(b => (b.dataset.old = 'true')));
  /**
   * Waits for a new response until `until` is on screen (the chat view renders text progressively, even
   * after the response is complete); resolves with its visible text (folded steps excluded).
   */
  const shown = async (before, until) => {
    await page.waitForFunction(
      ([selector, n]) =>
        Math.max(
          -1,
          ...[...document.querySelectorAll(selector)].map(item =>
            Number(item.closest('[data-index]')?.getAttribute('data-index') ?? -1),
          ),
        ) > n,
      [RESPONSES, before],
      { timeout: TIMEOUT },
    );
    await lastResponse().getByText(until).waitFor({ state: 'visible', timeout: TIMEOUT });
    return lastResponse().locator('.value').innerText();
  };
  const ui = {
    lastResponse,
    /** Runs a command from the palette (F1). */
    command: title => runCommand(page, title, TIMEOUT),
    /** The chat view's "New Chat" (+) button: a fresh thread, so a fresh council session. */
    async newChat() {
      await page
        .locator('.part.auxiliarybar a.codicon-plus[aria-label^="New Chat"]')
        .filter({ visible: true })
        .first()
        .click();
      await page.waitForFunction(selector => document.querySelectorAll(selector).length === 0, RESPONSES, {
        timeout: TIMEOUT,
      });
    },
    /** Types into the chat input (replacing the sticky `@council` prefill) and presses Enter. */
    async send(query) {
      await markFollowupsOld();
      await page.locator(`${CHAT} .interactive-input-editor`).click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(query);
      await page.keyboard.press('Enter');
    },
    async ask(query, until) {
      const before = await page.evaluate(newestResponse, RESPONSES);
      await ui.send(query);
      return shown(before, until);
    },
    /** Clicks a follow-up button of the latest response. */
    async clickFollowup(label, until) {
      const before = await page.evaluate(newestResponse, RESPONSES);
      await page.mouse.move(1, 1); // a person's pointer moves on: the last button's hover would cover this one
      const button = await page
        .locator(`${FOLLOWUPS}:not([data-old])`, { hasText: label })
        .elementHandle({ timeout: TIMEOUT });
      await markFollowupsOld();
      await button.click({ timeout: TIMEOUT });
      return shown(before, until);
    },
    /** The final answer is on screen in the last response, not folded under "Completed N steps". */
    async finalAnswerShown() {
      for (const heading of [
        'h2:text-is("The council\'s answer")',
        'h3:text-is("Where each persona landed")',
        'h3:text-is("Assumptions")',
      ]) {
        const element = lastResponse().locator(heading);
        await element.waitFor({ state: 'visible', timeout: TIMEOUT });
        assert.equal(
          await element.evaluate(e => e.closest('details') === null),
          true,
          `${heading} is outside the folded steps`,
        );
      }
    },
    /** `text` is shown in the last response outside the folded steps. */
    async unfolded(text) {
      const element = lastResponse().getByText(text, { exact: false }).last();
      await element.waitFor({ state: 'visible', timeout: TIMEOUT });
      assert.equal(
        await element.evaluate(e => e.closest('details') === null),
        true,
        `"${text}" is outside the folded steps`,
      );
    },
    /** Sets a setting in the Settings editor (a modal here), waits until it is saved, closes the editor. */
    async setting(key, value) {
      await ui.command('Preferences: Open Settings (UI)');
      await page.keyboard.type(key); // the search box has the focus
      await page.locator(`.settings-editor input[aria-label="${key}"]`).fill(value);
      await page
        .locator(`.settings-editor .setting-item-contents.is-configured[data-key="${key}"]`)
        .waitFor({ timeout: TIMEOUT });
      await page.keyboard.press('Escape');
      await page.locator('.settings-editor').waitFor({ state: 'detached', timeout: TIMEOUT });
    },
  };
  return ui;
}
