import { z } from 'zod';
import { dedupeArray, isObject, objectsAt } from '../../llm/replyNormalizing';
import { PIPELINE_STAGES, type PipelineStage } from '../schemas/agentType';
import { nonBlank } from '../schemas/common';
import { ConflictResolution, InputReference } from '../schemas/consolidation';
import { dropItems, dropUnknownStrings, objectAt, textAt, type Note } from './normalizing';
import { distinctItems, oneOf } from './requestEnums';

/** What is valid in one collector request: its stage, the context ids it consumes, and the agents it may rerun. */
export interface CollectorVocabulary {
  readonly stage: PipelineStage;
  /** Context ids of the agent results this collector consolidates. */
  readonly inputIds: readonly string[];
  /** Agent ids of the stage's delegation. */
  readonly agentIds: readonly string[];
}

const INPUT_RULE = 'Must be one of the input context ids of this request.';

/** An input context id of this request. */
export function inputIdOf(vocabulary: CollectorVocabulary, description: string): z.ZodType<string, string> {
  return oneOf(vocabulary.inputIds, description, INPUT_RULE);
}

/** The decisions open to this collector: rerun names its own agents, route_back only earlier stages (none for discovery). */
export function decisionFor(vocabulary: CollectorVocabulary) {
  const advance = z
    .object({ kind: z.literal('advance'), rationale: nonBlank('Why the stage is complete enough to move on.') })
    .describe('Move on to the next stage.');
  const rerun = z
    .object({
      kind: z.literal('rerun'),
      rationale: nonBlank('What was missing or wrong; sent to the rerun agents as feedback.'),
      agentIds: distinctItems(
        oneOf(vocabulary.agentIds, 'An agent id of this stage.', 'Must be an agent id of this stage.'),
        'Agents to rerun; empty reruns the whole stage.',
      ),
    })
    .describe('Run this stage again.');
  const earlier = PIPELINE_STAGES.slice(0, PIPELINE_STAGES.indexOf(vocabulary.stage));
  const description =
    'What the pipeline does next: advance, rerun this stage' +
    (earlier.length > 0 ? ', or route back to an earlier stage.' : '.');
  if (earlier.length === 0) return z.discriminatedUnion('kind', [advance, rerun]).describe(description);
  const routeBack = z
    .object({
      kind: z.literal('route_back'),
      target: z.enum(earlier as [PipelineStage, ...PipelineStage[]]).describe('Earlier stage to return to.'),
      rationale: nonBlank('Why an earlier stage must be redone.'),
    })
    .describe('Return to an earlier stage.');
  return z.discriminatedUnion('kind', [advance, rerun, routeBack]).describe(description);
}

/** The consolidation fields of a collector draft, with the ids this request admits. */
export function consolidationFieldsFor(vocabulary: CollectorVocabulary) {
  return {
    inputs: z
      .array(
        InputReference.safeExtend({
          inputContextId: inputIdOf(
            vocabulary,
            "Context id of the input (an agent result); one of this request's inputs.",
          ),
        }),
      )
      .min(1)
      .describe('Every input consumed; at least one, each inputContextId once.'),
    conflictResolutions: z
      .array(
        ConflictResolution.safeExtend({
          conflictingInputs: distinctItems(
            inputIdOf(vocabulary, 'An input context id.'),
            'Context ids of the inputs that conflicted; each also listed in inputs.',
          ).min(1),
        }),
      )
      .describe('Conflicts between inputs and how each was resolved; may be empty.'),
    decision: decisionFor(vocabulary),
  };
}

/**
 * Consolidation fixes: inputs once each and only this request's; conflicts cite listed inputs only (a conflict
 * left with none is dropped); a rerun names each known agent once.
 */
export function normalizeConsolidation(reply: unknown, vocabulary: CollectorVocabulary, note: Note): void {
  if (!isObject(reply)) return;
  dedupeArray(reply, 'inputs', 'inputContextId', 'input', note);
  const inputIds = new Set(vocabulary.inputIds);
  dropItems(
    reply,
    'inputs',
    input => !isObject(input) || typeof input['inputContextId'] !== 'string' || inputIds.has(input['inputContextId']),
    input => `dropped input "${String(textAt(input, 'inputContextId'))}": not an input of this collector`,
    note,
  );
  const listed = new Set(
    objectsAt(reply, 'inputs').flatMap(input =>
      typeof input['inputContextId'] === 'string' ? [input['inputContextId']] : [],
    ),
  );
  for (const resolution of objectsAt(reply, 'conflictResolutions')) {
    dedupeArray(resolution, 'conflictingInputs', undefined, 'conflicting input', note);
    dropUnknownStrings(resolution, 'conflictingInputs', listed, 'conflicting input (not in inputs)', note);
  }
  dropItems(
    reply,
    'conflictResolutions',
    resolution =>
      !isObject(resolution) ||
      !Array.isArray(resolution['conflictingInputs']) ||
      resolution['conflictingInputs'].length > 0,
    () => 'dropped a conflict resolution that cites none of the listed inputs',
    note,
  );
  const decision = objectAt(reply, 'decision');
  if (decision?.['kind'] === 'rerun') {
    dedupeArray(decision, 'agentIds', undefined, 'agent to rerun', note);
    dropUnknownStrings(decision, 'agentIds', new Set(vocabulary.agentIds), 'agent to rerun', note);
  }
}
