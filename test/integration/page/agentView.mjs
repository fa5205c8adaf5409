// What a person sees of the Council custom agent in the real chat view: the agent in the agent picker, the tools'
// confirmations with their cost, the clarifying questions in VS Code's own question UI (answered, then skipped), and
// Council's answer in the chat. Run by `npm run test:integration` (runWeb.mjs --pages-only). The fixture's default
// participant stands in for the agent's model: it calls the tools in the order the test types (`agent-loop […]`).
import { strict as assert } from 'node:assert';
import { runCommand } from './palette.mjs';

const TIMEOUT = 20_000;
const CHAT = '.part.auxiliarybar .interactive-session';
const INPUT = `${CHAT} .interactive-input-part`;

export default async function agentView(page, { log: print }) {
  const started = Date.now();
  const log = message => print(`agent page (${((Date.now() - started) / 1000).toFixed(1)} s): ${message}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  const command = title => runCommand(page, title, TIMEOUT);
  await command('Chat: Open Chat');
  await page.locator(INPUT).getByText('Council Test Model').waitFor({ timeout: TIMEOUT });

  log('the Council agent is in the agent picker, with its description; picked, the input shows it');
  const row = page.locator('.action-widget .monaco-list-row', { hasText: /^Council$/ });
  // VS Code lists extension agents once it has read their files, which can be after the chat view opens: a person
  // whose first look at the picker comes too early closes it and looks again.
  for (const deadline = Date.now() + TIMEOUT; ;) {
    await page.locator(`${INPUT} a.action-label`, { hasText: /^Agent$/ }).click();
    const listed = await row.waitFor({ timeout: 2_000 }).then(
      () => true,
      () => false,
    );
    if (listed) break;
    assert.ok(Date.now() < deadline, 'the Council agent is listed in the agent picker');
    await page.keyboard.press('Escape');
  }
  assert.match((await row.getAttribute('aria-label')) ?? '', /^Council, A council of expert personas/);
  // The picker is a menu a person drives with the keyboard too (its overlay takes pointer clicks in this build).
  // Where the focus starts depends on which rows the picker holds by then: a person presses the arrow until Council is
  // highlighted, and so does this test (one press per row at most).
  const focused = page.locator('.action-widget .monaco-list-row.focused', { hasText: /^Council$/ });
  const rows = await page.locator('.action-widget .monaco-list-row').count();
  for (let presses = 0; !(await focused.isVisible()); presses++) {
    assert.ok(presses <= rows, `Council is highlighted after at most ${rows} presses of the arrow key`);
    await page.keyboard.press('ArrowDown');
    await focused.waitFor({ timeout: 1_000 }).catch(() => {});
  }
  await page.keyboard.press('Enter');
  await page.locator(`${INPUT} a.action-label`, { hasText: /^Council$/ }).waitFor({ timeout: TIMEOUT });

  log("a council through the tools: confirmations with the cost, the questions in VS Code's question UI");
  await command('Council Test: Play the Scripted Council');
  const steps = [
    { tool: 'council_open', input: { question: 'Which cache for sessions?' } },
    { tool: 'council_deliberate', input: { sessionId: '$sessionId' } },
  ];
  await page.locator(`${INPUT} .interactive-input-editor`).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(`agent-loop ${JSON.stringify(steps)}`);
  await page.keyboard.press('Enter');
  const allow = page.locator(`${CHAT} .monaco-button`, { hasText: 'Allow in this Session' }).filter({ visible: true });
  const confirmation = page.locator(CHAT).getByText('Open a Council session?').filter({ visible: true });
  await confirmation.waitFor({ timeout: TIMEOUT });
  await page
    .locator(CHAT)
    .getByText('about 1 request and', { exact: false })
    .filter({ visible: true })
    .first()
    .waitFor();
  await allow.first().click();

  const carousel = page.locator(`${CHAT} .chat-question-carousel-container`).filter({ visible: true });
  await carousel
    .getByText('Round 1 question 1: what matters most here?')
    .waitFor({ timeout: TIMEOUT })
    .catch(async error => {
      const last = page.locator(`${CHAT} .interactive-item-container.interactive-response`).last();
      throw new Error(`${error.message}\nThe response reads: ${await last.locator('.value').textContent()}`);
    });
  await carousel.locator('.chat-question-list-item', { hasText: 'Recommended answer 1.1' }).waitFor();
  await carousel.locator('textarea.chat-question-freeform-textarea').fill('Latency, under 5 ms');
  await carousel.locator('.chat-question-submit-button').click();
  // One question at a time: the second comes in a carousel of its own, after the first was answered.
  await carousel.getByText('Round 1 question 2: what matters most here?').waitFor({ timeout: TIMEOUT });
  await carousel.locator('.chat-question-close').click();

  await page.locator(CHAT).getByText('Continue the Council session?').filter({ visible: true }).waitFor({
    timeout: TIMEOUT,
  });
  await allow.first().click();
  const response = page.locator(`${CHAT} .interactive-item-container.interactive-response`).last();
  await response.getByText('Where each persona landed').waitFor({ timeout: TIMEOUT });
  // council_open's result is an earlier step: once the response completes, VS Code folds it under "Completed N
  // steps" at a moment of its own choosing, so its text is read from the fold's parts, after completion.
  await response.locator('.chat-response-completed-at').waitFor({ state: 'attached', timeout: TIMEOUT });
  const text = await responseText(
    page,
    response,
    "The user answered 1 question(s) through VS Code's question tool and skipped 1",
  );
  assert.match(text, /The user answered 1 question\(s\) through VS Code's question tool and skipped 1/);
  assert.match(text, /Clarifying questions: 2 asked/);
  assert.match(text, /The council's answer/);
  assert.match(text, /Assumed: Recommended answer 1\.2/);
  log('agent checks passed');
}

/**
 * The response's text with what VS Code folded under "Completed N steps" (an earlier tool's result), once `text` is
 * in it: the fold's parts are in the page, shown or not, and whether it is open at a given moment is VS Code's choice.
 */
async function responseText(page, response, text) {
  const value = response.locator('.value');
  for (const deadline = Date.now() + TIMEOUT; ;) {
    const all = (await value.textContent()) ?? '';
    if (all.includes(text)) return all;
    assert.ok(Date.now() < deadline, `"${text}" is in the response (folded or not); it reads: ${all}`);
    await page.waitForTimeout(200);
  }
}
