import assert from 'node:assert/strict';
import type { z } from 'zod';
import {
  CycleVerdictSchema,
  DisagreementSchema,
  FinalSynthesisSchema,
  PersonaConclusionSchema,
  PersonaContributionSchema,
  ProposedQuestionsSchema,
} from '../../../src/core/council/replies';
import { neverCancelled } from '../../../src/core/llm/languageModel';
import { jsonSchemaOf, requestStructured } from '../../../src/core/llm/structuredOutput';
import { ScriptedModel, valueReply } from '../../support/scriptedModel';

const question = (impact: number, text: string) => ({
  question: text,
  targetAmbiguity: 'scope',
  recommendedAnswer: 'Only the web app.',
  impact,
  rationale: 'It decides the architecture.',
});

/** Paths of object properties in a JSON Schema that lack a description. */
function undescribed(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as { properties?: Record<string, { description?: string }>; items?: unknown };
  const own = Object.entries(node.properties ?? {}).flatMap(([key, child]) => [
    ...(child.description ? [] : [`${path}.${key}`]),
    ...undescribed(child, `${path}.${key}`),
  ]);
  return [...own, ...undescribed(node.items, `${path}[]`)];
}

describe('council reply schemas', () => {
  const schemas: Readonly<Record<string, z.ZodType>> = {
    ProposedQuestions: ProposedQuestionsSchema,
    PersonaContribution: PersonaContributionSchema,
    CycleVerdict: CycleVerdictSchema,
    PersonaConclusion: PersonaConclusionSchema,
    FinalSynthesis: FinalSynthesisSchema,
  };

  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: every field tells the model what to put there`, () => {
      assert.deepEqual(undescribed(jsonSchemaOf(schema)), []);
    });
  }

  it('ProposedQuestions ranks questions by impact, keeping the model order for ties', () => {
    const reply = ProposedQuestionsSchema.parse({
      needsClarification: true,
      questions: [question(2, 'a'), question(5, 'b'), question(2, 'c'), question(4, 'd')],
    });
    assert.deepEqual(reply.questions.map(q => q.question), ['b', 'd', 'a', 'c']);
  });

  it('ProposedQuestions rejects an impact outside 1..5, an unknown ambiguity and more than 5 questions', () => {
    assert.equal(ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: [question(6, 'a')] }).success, false);
    assert.equal(ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: [question(0, 'a')] }).success, false);
    const vague = { ...question(3, 'a'), targetAmbiguity: 'vibes' };
    assert.equal(ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: [vague] }).success, false);
    const six = Array.from({ length: 6 }, (_, i) => question(3, `q${i}`));
    assert.equal(ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: six }).success, false);
  });

  it('PersonaContribution rejects a blank position and accepts an omitted changeReason', () => {
    const base = { position: 'Use Postgres.', argument: 'It fits.', changedPosition: false, agreesWith: [], concerns: [] };
    assert.equal(PersonaContributionSchema.safeParse(base).success, true);
    assert.equal(PersonaContributionSchema.safeParse({ ...base, position: '   ' }).success, false);
  });

  it('a disagreement needs at least two positions', () => {
    const one = { topic: 'Caching', positions: [{ persona: 'Ana', position: 'Cache everything.' }] };
    assert.equal(DisagreementSchema.safeParse(one).success, false);
  });

  it('PersonaConclusion confidence is high, medium or low', () => {
    assert.equal(PersonaConclusionSchema.safeParse({ conclusion: 'Yes.', confidence: 'certain' }).success, false);
  });

  for (const supportsToolCalling of [true, false]) {
    it(`ProposedQuestions works end to end through requestStructured (tool calling: ${supportsToolCalling})`, async () => {
      const model = new ScriptedModel(
        () => valueReply({ needsClarification: true, questions: [question(1, 'low'), question(5, 'high')] }),
        { supportsToolCalling },
      );
      const reply = await requestStructured(
        model,
        { schema: ProposedQuestionsSchema, name: 'propose_questions', description: 'Clarifying questions.', messages: [{ role: 'user', content: 'x' }] },
        neverCancelled,
      );
      assert.deepEqual(reply.questions.map(q => q.question), ['high', 'low']);
    });
  }
});
