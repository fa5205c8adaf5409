import * as assert from 'node:assert/strict';
import { newCouncilSession, runCouncilTurn } from '../../../../../src/core/council/councilTurn';
import { answerAppendix } from '../../../../../src/core/council/wording/markdown';
import { NO_SPEND } from '../../../../../src/core/llm/spending/ledger';
import { councilRig } from '../../../../support/councilHarness';

const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 5 };

async function finishedSession(convergeAtCycle: number | 'never') {
  const rig = await councilRig({ script: { personaIds: FOUR, convergeAtCycle } });
  const log = newCouncilSession(
    { request: 'Split the service?', userId: 'u', limits: LIMITS, skipClarification: true },
    rig.deps,
  );
  await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
  assert.equal(log.state, 'completed');
  return log;
}

/** An agent or a reader must tell "nothing contested" from "not reported": the answer always says which. */
describe('the answer says what is contested every time', () => {
  it('a council that agreed says nothing is left contested', async () => {
    const log = await finishedSession(2);
    const appendix = answerAppendix(log.snapshot, { totals: log.spent });
    assert.match(appendix, /### Nothing left contested\n\nEvery persona agreed with the others/);
    assert.doesNotMatch(appendix, /### Still contested/);
  });

  it('a council stopped without agreement says what is still contested', async () => {
    const log = await finishedSession('never');
    const appendix = answerAppendix(log.snapshot, { totals: log.spent });
    assert.match(appendix, /### Still contested when the debate stopped\n\n\S/);
    assert.doesNotMatch(appendix, /Nothing left contested/);
  });

  it('the footer says who ran on what when more than one model was used, and nothing when one was', async () => {
    const log = await finishedSession(2);
    const line = (who: string, model: string) => ({
      who,
      step: 'cycle 1',
      model,
      requests: 1,
      inputTokens: 10,
      outputTokens: 5,
    });
    const mixed = answerAppendix(log.snapshot, {
      totals: NO_SPEND,
      ledger: [
        line('Security Expert', 'GPT-5 mini'),
        line('Architect', 'Claude Sonnet'),
        line('Synthesis', 'GPT-5 mini'),
      ],
    });
    assert.match(
      mixed,
      /Models: Security Expert on GPT-5 mini, Architect on Claude Sonnet, Synthesis on GPT-5 mini\._$/,
    );
    const single = answerAppendix(log.snapshot, { totals: NO_SPEND, ledger: [line('Security Expert', 'GPT-5 mini')] });
    assert.doesNotMatch(single, /Models:/);
  });
});
