import * as assert from 'node:assert/strict';
import { anonymizedCycles, peerLabels } from '../../../../src/core/council/anonymousPeers';
import { newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { transcriptMarkdown } from '../../../../src/core/council/wording/transcript';
import { messageText } from '../../../../src/core/llm/usage';
import { sessionView } from '../../../support/sessionViews';
import { councilResponder, councilRig } from '../../../support/councilHarness';
import { speakerOf } from '../../../support/councilScript';
import { debate, PERSONAS } from './prompts/fixtures';

const FOUR = ['senior-developer', 'security-expert', 'software-architect', 'qa-engineer'];
const NAMES = ['Senior Developer', 'Security Expert', 'Software Architect', 'QA Engineer'];
const LIMITS = { maxClarificationRounds: 3, debateCycleLimit: 3, adminMaxDebateCycles: 5 };

describe('anonymous peers', () => {
  it('labels colleagues in council order and maps labels back to names', () => {
    const labels = peerLabels(['Ana', 'Cy']);
    assert.deepEqual(labels.labels, ['Position A', 'Position B']);
    assert.equal(labels.labelOf('cy'), 'Position B');
    assert.equal(labels.nameOf('position a'), 'Ana');
    assert.equal(labels.nameOf('Position Z'), undefined);
  });

  it('a record read by one persona: colleagues by label everywhere (texts too), its own as You', () => {
    const [ana, bo, cy] = PERSONAS.map(p => p.name);
    const colleagues = PERSONAS.map(p => p.name).filter(n => n !== bo);
    const cycles = debate(2, 5).map(record => ({
      ...record,
      resolutionSummary: `${ana} and ${cy} still disagree.`,
    }));
    const seen = anonymizedCycles(cycles, bo!, peerLabels(colleagues), colleagues);
    const text = JSON.stringify(seen);
    for (const name of colleagues) assert.ok(!new RegExp(`\\b${name}\\b`).test(text), `${name} is not named`);
    assert.ok(!text.includes(`"${bo}"`), 'nor the speaker');
    assert.deepEqual(
      seen[0]!.contributions.map(c => c.persona),
      PERSONAS.map(p => (p.name === bo ? 'You' : peerLabels(colleagues).labelOf(p.name))),
    );
    assert.equal(seen[0]!.resolutionSummary, 'Position A and Position B still disagree.');
  });

  it('in a real session no later-cycle prompt names a colleague, and the transcript keeps every name', async () => {
    const script = { personaIds: FOUR, convergeAtCycle: 3 as const };
    const rig = await councilRig({ script, responder: councilResponder(script) });
    const log = newCouncilSession(
      { request: 'Split the service?', userId: 'u', limits: LIMITS, skipClarification: true },
      rig.deps,
    );
    await runCouncilTurn(log, { kind: 'retry' }, rig.deps);
    assert.equal(log.state, 'completed');
    const later = rig.model.requests
      .filter(request => request.tools.some(tool => tool.name === 'contribute_to_debate'))
      .map(request => request.messages.map(messageText).join('\n'))
      .filter(prompt => !/This is debate cycle 1\./.test(prompt));
    assert.ok(later.length >= 4, `${later.length} later-cycle prompts`);
    for (const prompt of later) {
      const speaker = speakerOf(prompt);
      for (const name of NAMES.filter(n => n !== speaker))
        assert.ok(!prompt.includes(name), `${speaker}'s prompt names ${name}`);
      assert.match(prompt, /Position A/);
    }
    const transcript = transcriptMarkdown(log.snapshot);
    for (const name of NAMES) assert.ok(transcript.includes(name), `the transcript names ${name}`);
    // Agreements read back as names: the council converged on them.
    const last = sessionView(log.snapshot).discussions.at(-1);
    assert.ok(last && last.status !== 'in_progress' && last.converged);
  });
});
