import { WRITE_ANSWER_TASK } from '../../../../../src/core/council/prompts/answerTask';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../../src/core/llm/languageModel';
import { DATA_NOTICE } from '../../../../../src/core/llm/prompting/dataBlock';
import { DebateTurnPrompt } from '../../../../../src/core/council/prompts/debateTurnPrompt';
import { ModeratorPrompt } from '../../../../../src/core/council/prompts/moderatorPrompt';
import type { DebateCycleRecord } from '../../../../../src/core/council/prompts/promptData';
import { promptBudget, renderMessages, type RenderedPrompt } from '../../../../../src/core/llm/prompting/render';
import { SynthesisPrompt } from '../../../../../src/core/council/prompts/synthesisPrompt';
import { estimateTokens, ScriptedModel } from '../../../../support/scriptedModel';
import { allText, argumentOf, debate, PERSONAS, prose } from './fixtures';

const CYCLES = debate(10, 1500);
const REQUEST = `REQUEST-START Design the sync service for our offline-first app. ${prose(60, 'req')} REQUEST-END`;
const context = {
  request: REQUEST,
  answers: [{ question: 'Which platforms?', answer: 'ANSWER-platforms: iOS and Android.' }],
  assumptions: [{ assumption: 'ASSUMPTION-team: a team of four.', rationale: 'skipped' }],
};
const WINDOWS = [8_000, 16_000, 128_000] as const;
const MESSAGE_OVERHEAD = 3;

/** The prompts that carry a debate record, each with the text that proves its instructions survived. */
const PROMPTS: readonly {
  readonly name: string;
  readonly instructionMarker: string;
  readonly taskMarker: string;
  readonly speaker?: string;
  /** The synthesis reads positions, key points and concerns, never the arguments' prose. */
  readonly withoutArguments?: boolean;
  render(model: ScriptedModel): Promise<RenderedPrompt>;
}[] = [
  {
    name: 'DebateTurnPrompt',
    instructionMarker: 'You are Ana, a member of a council of experts',
    taskMarker: 'This is debate cycle 11.',
    speaker: 'Ana',
    render: model =>
      renderMessages(DebateTurnPrompt, { ...context, persona: PERSONAS[0]!, cycle: 11, previousCycles: CYCLES }, model),
  },
  {
    name: 'ModeratorPrompt',
    instructionMarker: 'You moderate a debate between expert personas',
    taskMarker: 'Cycle 10 of at most 10 has just finished.',
    render: model =>
      renderMessages(ModeratorPrompt, { ...context, personas: PERSONAS, cycles: CYCLES, maxCycles: 10 }, model),
  },
  {
    name: 'SynthesisPrompt',
    instructionMarker: "You write the council's one consolidated answer",
    taskMarker: WRITE_ANSWER_TASK,
    withoutArguments: true,
    render: model =>
      renderMessages(
        SynthesisPrompt,
        { ...context, personas: PERSONAS, deliberation: { kind: 'debate', cycles: CYCLES, stop: 'limit' as const } },
        model,
      ),
  },
];

function independentTokenCount(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content as string) + MESSAGE_OVERHEAD, 0);
}

/** Which full arguments made it into the prompt, checking each one is there whole or not at all. */
function includedArguments(text: string, cycles: readonly DebateCycleRecord[]): Set<string> {
  const included = new Set<string>();
  for (const record of cycles) {
    for (const c of record.contributions) {
      const begins = text.includes(`BEGIN-${record.cycle}-${c.persona} `);
      const ends = text.includes(` END-${record.cycle}-${c.persona}`);
      if (!begins && !ends) continue;
      assert.ok(
        text.includes(argumentOf(record.cycle, c.persona, 1500)),
        `argument ${record.cycle}/${c.persona} was cut`,
      );
      included.add(`${record.cycle}/${c.persona}`);
    }
  }
  return included;
}

for (const prompt of PROMPTS) {
  describe(`${prompt.name} budget: 10 cycles x 6 personas x 1500 words`, () => {
    const included = new Map<number, Set<string>>();

    for (const window of WINDOWS) {
      it(`fits ${window} tokens and keeps instructions, request and the latest cycle; nothing cut mid-text`, async () => {
        const model = new ScriptedModel(() => '', { maxInputTokens: window });
        const rendered = await prompt.render(model);
        const text = allText(rendered.messages);
        const budget = await promptBudget(model);

        assert.ok(rendered.tokenCount <= budget, `tokenCount ${rendered.tokenCount} > ${budget}`);
        assert.ok(independentTokenCount(rendered.messages) <= budget, 'recounted tokens exceed the budget');
        assert.ok(text.includes(prompt.instructionMarker), 'instructions kept');
        assert.ok(text.includes(DATA_NOTICE), 'data notice kept');
        assert.ok(text.includes(prompt.taskMarker), 'task kept');
        assert.ok(text.includes(REQUEST), 'request kept whole');
        assert.ok(text.includes('ANSWER-platforms') && text.includes('ASSUMPTION-team'), 'clarifications kept');
        assert.ok(text.includes('SUMMARY-10'), 'latest resolution summary kept');
        for (const p of PERSONAS) {
          assert.ok(text.includes(`POSITION-10-${p.name}`), `latest position of ${p.name} kept`);
          assert.ok(text.includes(`CONCERN-10-${p.name}`), `latest concern of ${p.name} kept`);
        }

        const args = includedArguments(text, CYCLES);
        included.set(window, args);
        if (prompt.withoutArguments) {
          assert.equal(args.size, 0, 'no argument prose');
          for (const p of PERSONAS) {
            assert.ok(text.includes(`KEYPOINT-10-${p.name}`), `the facts ${p.name}'s position rests on, verbatim`);
            assert.ok(!text.includes(`POSITION-1-${p.name}`), `${p.name}'s replaced positions are not resent`);
          }
          return;
        }
        assert.ok(args.size >= 1, 'at least one full argument fits');
        if (prompt.speaker)
          assert.ok(args.has(`10/${prompt.speaker}`), "the speaker's own latest argument is kept first");
        const latestKept = PERSONAS.filter(p => args.has(`10/${p.name}`)).length;
        const olderKept = [...args].filter(key => !key.startsWith('10/')).length;
        if (olderKept > 0)
          assert.equal(latestKept, PERSONAS.length, 'older arguments only once every latest argument fits');
        // Older digests go newest-first: a kept digest implies every newer one is kept.
        const digests = CYCLES.map(r => text.includes(`SUMMARY-${r.cycle}:`));
        const firstKept = digests.indexOf(true);
        assert.ok(digests.slice(firstKept).every(Boolean), `digests kept out of order: ${digests.join(',')}`);
      });
    }

    if (!prompt.withoutArguments)
      it('uses a bigger window for more of the debate', () => {
        const sizes = WINDOWS.map(w => included.get(w)?.size ?? 0);
        assert.ok(sizes[0]! < sizes[1]! && sizes[1]! < sizes[2]!, `arguments kept per window: ${sizes.join(', ')}`);
      });
  });
}

describe('DebateTurnPrompt, condensed (economy), after 10 cycles x 6 personas x 1500 words', () => {
  for (const window of WINDOWS) {
    it(`fits ${window} tokens with where everyone stands and every colleague's points, and no argument prose`, async () => {
      const model = new ScriptedModel(() => '', { maxInputTokens: window });
      const props = { ...context, persona: PERSONAS[0]!, cycle: 11, previousCycles: CYCLES, condensed: true };
      const rendered = await renderMessages(DebateTurnPrompt, props, model);
      const text = allText(rendered.messages);
      assert.ok(rendered.tokenCount <= (await promptBudget(model)), `tokenCount ${rendered.tokenCount}`);
      assert.ok(text.includes(DATA_NOTICE) && text.includes('This is debate cycle 11.'), 'instructions and task kept');
      assert.ok(text.includes(REQUEST) && text.includes('ASSUMPTION-team'), 'request and assumptions kept');
      for (const p of PERSONAS) assert.ok(text.includes(`POSITION-10-${p.name}`), `where ${p.name} stands`);
      for (const p of PERSONAS.slice(1))
        assert.ok(text.includes(`KEYPOINT-10-${p.name}`), `${p.name}'s points (no options: every colleague is apart)`);
      assert.equal(includedArguments(text, CYCLES).size, 0, 'no argument prose');
      assert.ok(!/POSITION-9-|SUMMARY-9/.test(text), 'no earlier cycle');
    });
  }
});
