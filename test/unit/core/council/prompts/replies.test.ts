import assert from 'node:assert/strict';
import type { z } from 'zod';
import {
  contributionReplySchema,
  CycleVerdictSchema,
  PersonaConclusionSchema,
  PersonaContributionSchema,
  ProposedQuestionsSchema,
} from '../../../../../src/core/council/prompts/replies';
import {
  contributionNormalizer,
  questionsNormalizer,
  verdictNormalizer,
} from '../../../../../src/core/council/replyNormalizers';
import type { ReplyNormalizer } from '../../../../../src/core/llm/structuredOutput';
import { neverCancelled } from '../../../../../src/core/llm/languageModel';
import { jsonSchemaOf, requestStructured } from '../../../../../src/core/llm/structuredOutput';
import { ScriptedModel, valueReply } from '../../../../support/scriptedModel';

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
    'PersonaContribution (cycle 1)': contributionReplySchema({ cycle: 1, colleagues: ['Ana'] }),
    'PersonaContribution (cycle 2)': contributionReplySchema({ cycle: 2, colleagues: ['Ana'] }),
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
    assert.deepEqual(
      reply.questions.map(q => q.question),
      ['b', 'd', 'a', 'c'],
    );
  });

  it('ProposedQuestions rejects an impact outside 1..5, an unknown ambiguity and more than 5 questions', () => {
    assert.equal(
      ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: [question(6, 'a')] }).success,
      false,
    );
    assert.equal(
      ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: [question(0, 'a')] }).success,
      false,
    );
    const vague = { ...question(3, 'a'), targetAmbiguity: 'vibes' };
    assert.equal(ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: [vague] }).success, false);
    const six = Array.from({ length: 6 }, (_, i) => question(3, `q${i}`));
    assert.equal(ProposedQuestionsSchema.safeParse({ needsClarification: true, questions: six }).success, false);
  });

  it('PersonaContribution rejects a blank position and accepts an omitted changeReason', () => {
    const base = {
      position: 'Use Postgres.',
      argument: 'It fits.',
      keyPoints: ['Postgres is already run here.'],
      changedPosition: false,
      agreesWith: [],
      concerns: [],
      confidence: 'medium',
    };
    assert.equal(PersonaContributionSchema.safeParse(base).success, true);
    assert.equal(PersonaContributionSchema.safeParse({ ...base, position: '   ' }).success, false);
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
        {
          schema: ProposedQuestionsSchema,
          name: 'propose_questions',
          description: 'Clarifying questions.',
          messages: [{ role: 'user', content: 'x' }],
        },
        neverCancelled,
      );
      assert.deepEqual(
        reply.questions.map(q => q.question),
        ['high', 'low'],
      );
    });
  }

  it('the JSON Schema sent says what it can: not blank, each once, names of this council only', () => {
    const contribution = jsonSchemaOf(contributionReplySchema({ cycle: 2, colleagues: ['Ana', 'Ben'] }));
    assert.equal(at(contribution, 'properties', 'position', 'minLength'), 1);
    assert.deepEqual(at(contribution, 'properties', 'agreesWith', 'items', 'enum'), ['Ana', 'Ben']);
    assert.match(String(at(contribution, 'properties', 'agreesWith', 'description')), /Each item at most once\./);
    const first = jsonSchemaOf(contributionReplySchema({ cycle: 1, colleagues: ['Ana'] }));
    assert.equal(at(first, 'properties', 'changedPosition', 'type'), 'boolean');
    assert.match(String(at(first, 'properties', 'changedPosition', 'description')), /Always false/);
    assert.equal(at(first, 'properties', 'agreesWith', 'maxItems'), 0);
    assert.equal(at(first, 'properties', 'changeReason'), undefined);
    assert.equal(
      at(jsonSchemaOf(CycleVerdictSchema), 'properties', 'positions'),
      undefined,
      'the session knows the positions: not asked again',
    );
  });
});

/** The value at `path` in a JSON Schema, or undefined. */
function at(schema: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
    schema,
  );
}

/** Runs a normalizer as requestStructured does, returning the reply and the notes. */
function normalize(normalizer: ReplyNormalizer, reply: unknown): { reply: Record<string, unknown>; notes: string[] } {
  const notes: string[] = [];
  return { reply: normalizer(structuredClone(reply), note => notes.push(note)) as Record<string, unknown>, notes };
}

describe('council reply normalizers', () => {
  const contribution = {
    position: 'Use Postgres.',
    argument: 'It fits.',
    keyPoints: ['Postgres is already run here.'],
    confidence: 'medium',
    vote: 'my own',
    changedPosition: false,
    agreesWith: [],
    concerns: [],
  };
  const later = contributionNormalizer({
    cycle: 2,
    self: 'Ana',
    colleagues: ['Ben', 'Cy'],
    previousPosition: 'Use MySQL.',
  });

  it('a reply without key points gets its argument’s first sentences as key points, not a repair', () => {
    const { keyPoints: _omitted, ...without } = contribution;
    const argument = 'Postgres is already run here. It handles 5k writes a second. Redis would be a new service.';
    const { reply, notes } = normalize(later, { ...without, argument });
    assert.deepEqual(reply.keyPoints, [
      'Postgres is already run here.',
      'It handles 5k writes a second.',
      'Redis would be a new service.',
    ]);
    assert.deepEqual(notes, ["filled keyPoints with the argument's first sentences"]);
    assert.equal(contributionReplySchema({ cycle: 2, colleagues: ['Ben', 'Cy'] }).safeParse(reply).success, true);
  });

  it('drops a changeReason when changedPosition is false', () => {
    const { reply, notes } = normalize(later, { ...contribution, changeReason: 'Ben convinced me.' });
    assert.equal('changeReason' in reply, false);
    assert.equal(notes.length, 1);
    assert.equal(contributionReplySchema({ cycle: 2, colleagues: ['Ben', 'Cy'] }).safeParse(reply).success, true);
  });

  it('a changed position without a reason says so and what it moved from, instead of failing the turn', () => {
    const { reply } = normalize(later, { ...contribution, changedPosition: true });
    assert.equal(reply.changeReason, 'No reason given; the previous position was: Use MySQL.');
  });

  it('agreesWith keeps each colleague once, respelled exactly, and drops the speaker and strangers', () => {
    const { reply, notes } = normalize(later, { ...contribution, agreesWith: ['ben', 'Ana', 'Zed', 'Ben', 'Cy'] });
    assert.deepEqual(reply.agreesWith, ['Ben', 'Cy']);
    assert.equal(notes.length, 4);
  });

  it('in cycle 1 nothing has changed and nobody has been read yet', () => {
    const first = contributionNormalizer({ cycle: 1, self: 'Ana', colleagues: ['Ben'] });
    const { reply } = normalize(first, {
      ...contribution,
      changedPosition: true,
      changeReason: 'x',
      agreesWith: ['Ben'],
    });
    assert.deepEqual([reply.changedPosition, 'changeReason' in reply, reply.agreesWith], [false, false, []]);
  });

  it('drops repeated concerns and open disagreements', () => {
    assert.deepEqual(normalize(later, { ...contribution, concerns: ['Cost.', 'Cost.'] }).reply.concerns, ['Cost.']);
    const verdict = { resolutionSummary: 'Split.', converged: false, openDisagreements: ['A vs B.', 'A vs B.'] };
    assert.deepEqual(normalize(verdictNormalizer, verdict).reply.openDisagreements, ['A vs B.']);
  });

  it('drops a clarifying question already asked, or asked twice in the reply', () => {
    const reply = {
      needsClarification: true,
      questions: [question(3, 'Who uses it?'), question(4, 'who  uses it?'), question(2, 'Budget?')],
    };
    const { reply: fixed } = normalize(questionsNormalizer(['Budget?']), reply);
    assert.deepEqual(
      (fixed.questions as { question: string }[]).map(q => q.question),
      ['Who uses it?'],
    );
  });
});
