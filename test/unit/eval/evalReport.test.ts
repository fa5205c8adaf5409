import { strict as assert } from 'node:assert';
import { DECISIONS } from '../../../src/core/council/eval/decisions';
import { evalReport } from '../../../src/core/council/eval/evalReport';
import { toolResultFacts } from '../../eval/toolResultFacts';

describe('the eval report', () => {
  const decision = DECISIONS[0]!;
  const report = evalReport(
    'Council Test Model',
    [
      {
        decision,
        council: {
          text: "## The council's answer\n\nUse sessions.\n\n### Assumptions",
          cost: '9 requests · 16k tokens',
          seconds: 3.25,
        },
        facts: toolResultFacts('Council: A, B.'),
        single: { text: 'Use JWTs.', cost: '1 request · 400 tokens', seconds: 0.5 },
      },
    ],
    new Date('2026-11-24T10:00:00Z'),
    'the council as `council_deliberate` runs it',
  );

  it('puts both answers side by side with their cost and time', () => {
    // One table: its rows on consecutive lines (a blank line would end it).
    assert.match(
      report,
      /\| \| council \| single prompt \|\n\| --- \| --- \| --- \|\n\| cost \| 9 requests · 16k tokens \| 1 request · 400 tokens \|\n\| time \| 3\.3 s \| 0\.5 s \|/,
    );
    assert.match(report, /### The council\n\n> ## The council's answer\n> \n> Use sessions\./);
    assert.match(report, /### The single prompt\n\n> Use JWTs\./);
  });

  it('gives a person the rubric to tick for each answer, and leaves the verdict to them', () => {
    const boxes = report.split(`- [ ] ${decision.rubric[0]}`).length - 1;
    assert.equal(boxes, 2, 'the rubric once per answer');
    assert.match(report, /- \[ \] States the assumptions it rests on/);
    assert.match(report, /\*\*Better answer:\*\* ☐ council ☐ single prompt ☐ no difference/);
  });

  it('every decision has a question, context and a rubric, under a unique id', () => {
    assert.equal(new Set(DECISIONS.map(d => d.id)).size, DECISIONS.length);
    for (const d of DECISIONS) assert.ok(d.question.endsWith('?') && d.context && d.rubric.length >= 3, d.id);
  });

  it('records per decision whether the council escalated, its vote and its combined confidence', () => {
    const settled = toolResultFacts(
      "Council: A, B. Debate cycles: 1. Spent: 6 requests.\nVote: none (the personas answered without a debate cycle that votes).\n\n## The council's answer\n\n**Combined confidence:** Strong agreement: 4 of 4 back B (Redis), high confidence.\n",
    );
    assert.deepEqual(settled, {
      escalated: 'no: the first drafts settled it (1 cycle)',
      vote: 'none (the personas answered without a debate cycle that votes).',
      confidence: 'Strong agreement: 4 of 4 back B (Redis), high confidence.',
    });
    const debated = toolResultFacts(
      "Council: A, B. Debate cycles: 3. Spent: 12 requests.\nVote: 3 of 4 back A's position.\n",
    );
    assert.equal(debated.escalated, 'yes: 3 debate cycles');
    assert.equal(debated.confidence, 'not stated (the opening named no options)');
    assert.match(
      report,
      /- _Council escalated to a debate:_ not reported\n- _Vote:_ not reported\n- _Combined confidence:_ not stated/,
    );
  });
});
