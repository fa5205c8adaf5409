import { strict as assert } from 'node:assert';
import type { SessionEvent } from '../../../../../src/core/session/events';
import { SKIP_CLARIFICATION } from '../../../../../src/core/council/commands';
import { eventText } from '../../../../../src/core/council/wording/sessionEventText';
import { ARCHITECT, DEVELOPER, ev, fullCycle, run } from '../../session/fixtures';

/** What the chat shows when `event` is recorded after `before`. */
function shown(before: readonly SessionEvent[], event: SessionEvent, featureFlags: string[] = []) {
  return eventText(event, run([...before, event], { metadata: { featureFlags } }));
}

describe('sessionEventText: what the chat shows for each recorded event', () => {
  it('shows the council in sight, with its reason made safe (a heading in model text becomes bold)', () => {
    const select = ev.select([ARCHITECT, DEVELOPER]);
    const text = shown([], { ...select, selection: { ...select.selection, reason: '# Pwned\nbecause caching' } });
    assert.equal(text?.visible, true);
    assert.match(
      text?.markdown ?? '',
      /^\*\*Council:\*\* Software Architect, Senior Developer\. _\*\*Pwned\*\*\nbecause caching_/,
    );
  });

  it('says no clarification was needed, but not after /debate asked for none', () => {
    assert.match(shown([ev.select()], ev.debate())?.markdown ?? '', /No clarification needed/);
    assert.equal(shown([ev.select()], ev.debate(), [SKIP_CLARIFICATION]), undefined);
  });

  it('counts skipped and added questions, with the round the session is in', () => {
    const asked = [ev.select(), ev.clarify(['q1', 'q2'])];
    assert.match(shown(asked, ev.skip('a1'))?.markdown ?? '', /Logged as an assumption: Assume a1/);
    assert.match(shown(asked, ev.skipRemaining(['q1', 'q2']))?.markdown ?? '', /Skipped 2 questions;/);
    assert.match(shown([...asked, ev.skip('a1')], ev.skipRemaining(['q2']))?.markdown ?? '', /Skipped 1 question;/);
    assert.match(shown(asked, ev.more(['q3']))?.markdown ?? '', /Added 1 more question \(round 2\)/);
  });

  it("shows a contribution under the persona's name and the cycle it was recorded in, naming another model", () => {
    const before = [ev.select(), ev.debate(), ...fullCycle(1, false), ev.cycle(2)];
    const spoke = ev.spoke('developer', 36, {
      position: 'Use Redis',
      concerns: ['eviction storms'],
      metadata: { model: 'claude-sonnet-4' },
    });
    const text = shown(before, spoke)?.markdown ?? '';
    assert.match(text, /#### Senior Developer · cycle 2 · claude-sonnet-4/);
    assert.match(text, /\*\*Position:\*\* Use Redis/);
    assert.match(text, /- eviction storms/);
    assert.doesNotMatch(shown(before, ev.spoke('architect', 37))?.markdown ?? '', /·.*·/);
  });

  it('shows the debate extension with its new limit, and a cancellation', () => {
    // A one-cycle limit that the admin maximum lets the user extend to 2.
    const limits = { debateCycleLimit: 1, adminMaxDebateCycles: 2 };
    const limited = [ev.select(), ev.debate(2), ...fullCycle(1, false)];
    const after = run([...limited, ev.extend(50)], { limits });
    assert.equal(after.context.extendedDebateRequested, true, 'the extension was accepted');
    assert.equal(eventText(ev.extend(50), after)?.markdown, '_The debate continues, up to 2 cycles._\n\n');
    assert.match(shown([ev.select()], ev.cancel())?.markdown ?? '', /Session cancelled/);
  });

  it('shows nothing for events whose effect the next step shows (an answer, a cycle starting, a final answer)', () => {
    const asked = [ev.select(), ev.clarify(['q1'])];
    assert.equal(shown(asked, ev.answer('a1')), undefined);
    assert.equal(shown([ev.select(), ev.debate()], ev.cycle(1)), undefined);
    // The answer streams as the model writes it; its record shows nothing more.
    assert.equal(eventText(ev.finalAnswer(70), run([ev.select()])), undefined);
  });
});
