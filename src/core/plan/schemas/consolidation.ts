import { z } from 'zod';
import { PIPELINE_STAGES, type PipelineStage } from './agentType';
import { addIssue, nonBlank, requireUnique, StringMap } from './common';
import { ContextId } from './contextId';
import { distinctItems, oneOf } from './vocabulary';

/** What is valid in one collector request: the context ids it consumes, and the agents it may rerun. */
export interface CollectorVocabulary {
  /** Context ids of the agent results this collector consolidates. */
  readonly inputIds: readonly string[];
  /** Agent ids of the stage's delegation. */
  readonly agentIds: readonly string[];
}

const INPUT_RULE = 'Must be one of the input context ids of this request.';

/** An input context id of this request; any context id in the published record (no vocabulary). */
export function inputIdOf(inputIds: readonly string[] | undefined, description?: string): z.ZodType<string, string> {
  if (inputIds !== undefined) return oneOf(inputIds, description, INPUT_RULE);
  return description === undefined ? ContextId : ContextId.describe(description);
}

/**
 * The decisions open to a `stage` collector: rerun names its own agents, route_back only earlier stages (none for
 * discovery), proceed hands the result on through the context manager (spec 001 PROCEED; none for the last stage).
 */
function collectorDecision(stage: PipelineStage, agentIds: readonly string[] | undefined) {
  // The kinds name the branches; the prompt says when to choose each and what its rationale is for (a rerun's goes to
  // the agents as feedback), so only what it does not say is described here: every request pays for the words.
  const advance = z.object({ kind: z.literal('advance'), rationale: nonBlank() });
  const rerun = z.object({
    kind: z.literal('rerun'),
    rationale: nonBlank(),
    agentIds: distinctItems(
      oneOf(agentIds, undefined, 'Must be an agent id of this stage.'),
      'Agents to rerun; empty reruns them all.',
    ),
  });
  const index = PIPELINE_STAGES.indexOf(stage);
  const earlier = PIPELINE_STAGES.slice(0, index);
  const routeBack = z.object({
    kind: z.literal('route_back'),
    target: z.enum(earlier as [PipelineStage, ...PipelineStage[]]),
    rationale: nonBlank(),
  });
  const proceed = z.object({
    kind: z.literal('proceed'),
    rationale: nonBlank('What the next stage needs rebuilt from the run.'),
  });
  const branches = [
    advance,
    rerun,
    ...(earlier.length > 0 ? [routeBack] : []),
    ...(index < PIPELINE_STAGES.length - 1 ? [proceed] : []),
  ] as unknown as [typeof advance, typeof rerun, typeof routeBack, typeof proceed];
  return z.discriminatedUnion('kind', branches);
}
/** A collector's decision on what the pipeline does next. */
export type CollectorDecision = z.infer<ReturnType<typeof collectorDecision>>;

/**
 * The consolidation fields a `stage` collector fills in (the ConsolidationTemplate's content), with the ids a request
 * admits when its vocabulary is given.
 */
export function consolidationShape(stage: PipelineStage, vocabulary?: CollectorVocabulary) {
  const inputIds = vocabulary?.inputIds;
  return {
    inputs: z
      .array(
        z.object({
          inputContextId: inputIdOf(inputIds),
          inputType: nonBlank('The agent type of the input.').meta({
            notAsked: 'Council derives it from the inputContextId.',
          }),
          inputSummary: nonBlank('What it contributed, in a sentence or two.'),
        }),
      )
      .min(1)
      .describe('Every input consumed, each once.'),
    mergeStrategy: nonBlank(),
    conflictResolutions: z.array(
      z.object({
        conflictDescription: nonBlank(),
        resolutionApproach: nonBlank(),
        conflictingInputs: distinctItems(inputIdOf(inputIds), 'Each also listed in inputs.').min(1),
      }),
    ),
    aggregatedMetrics: z.record(z.string(), z.number()).describe('Numeric metrics, e.g. filesCovered: 12.'),
    consolidatedOutput: nonBlank('The consolidated summary of this stage.'),
    decision: collectorDecision(stage, vocabulary?.agentIds),
  };
}

/** Reports every id that the `listField` items cite under `idsField` and that is not one of the collector's inputs. */
export function requireCitedInputs<IdsField extends string>(
  ctx: z.RefinementCtx,
  inputs: readonly { readonly inputContextId: string }[],
  items: readonly Readonly<Record<IdsField, readonly string[]>>[],
  listField: string,
  idsField: IdsField,
): void {
  const inputIds = new Set(inputs.map(input => input.inputContextId));
  items.forEach((item, index) => {
    item[idsField].forEach((id, idIndex) => {
      if (!inputIds.has(id)) addIssue(ctx, [listField, index, idsField, idIndex], `"${id}" is not one of the inputs`);
    });
  });
}

type ConsolidationContent = z.infer<z.ZodObject<ReturnType<typeof consolidationShape>>>;

/** ConsolidationTemplate rules every collector result obeys: unique inputs, and conflicts cite only inputs. */
export function checkConsolidation(value: ConsolidationContent, ctx: z.RefinementCtx): void {
  requireUnique(ctx, value.inputs, input => input.inputContextId, ['inputs'], 'inputContextId');
  requireCitedInputs(ctx, value.inputs, value.conflictResolutions, 'conflictResolutions', 'conflictingInputs');
}

/** Curated view of a `stage` collector's consolidation metadata for downstream prompts. */
export function consolidationSummary(stage: PipelineStage) {
  return z
    .object({
      ...consolidationShape(stage),
      inputs: z.array(consolidationShape(stage).inputs.element).describe('Curated input references; may be empty.'),
      upstreamContextChain: z
        .array(ContextId)
        .min(1)
        .describe('Context ids from the workflow start to the collector result.'),
      metadata: StringMap.describe('Training metadata.'),
    })
    .describe('Curated consolidation metadata.');
}
/** Curated view of a collector's consolidation metadata. */
export type ConsolidationSummary = z.infer<ReturnType<typeof consolidationSummary>>;
