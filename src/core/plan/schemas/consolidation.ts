import { z } from 'zod';
import { type AgentType, isEarlierStage, PipelineStage } from './agentType';
import { addIssue, MetricMap, nonBlank, requireUnique, StringMap } from './common';
import { ContextId, contextIdOf } from './contextId';
import { SemVer } from './version';

/** An input a collector consumed. */
export const InputReference = z
  .object({
    inputContextId: ContextId.describe('Context id of the input (an agent result); copy it exactly.'),
    inputType: nonBlank('Type of the input, e.g. "discovery-report".'),
    inputSummary: nonBlank('One or two sentences on what the input contributed.'),
  })
  .describe('An input the collector consumed.');
/** An input a collector consumed. */
export type InputReference = z.infer<typeof InputReference>;

/** How a conflict between inputs was resolved. */
export const ConflictResolution = z
  .object({
    conflictDescription: nonBlank('What conflicted.'),
    resolutionApproach: nonBlank('How it was resolved.'),
    conflictingInputs: z
      .array(ContextId)
      .min(1)
      .describe('Context ids of the inputs that conflicted; each must be an input.'),
  })
  .describe('A conflict between inputs and its resolution.');
/** How a conflict between inputs was resolved. */
export type ConflictResolution = z.infer<typeof ConflictResolution>;

/** A collector's decision on what the pipeline does next. */
export const CollectorDecision = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('advance'),
        rationale: nonBlank('Why the stage is complete enough to move on.'),
      })
      .describe('Move on to the next stage.'),
    z
      .object({
        kind: z.literal('rerun'),
        rationale: nonBlank('What was missing or wrong; sent to the rerun agents as feedback.'),
        agentIds: z
          .array(nonBlank('An agent id from the delegation.'))
          .describe('Agents to rerun; empty reruns the whole stage.'),
      })
      .describe('Run this stage again.'),
    z
      .object({
        kind: z.literal('route_back'),
        target: PipelineStage.describe('Earlier stage to return to.'),
        rationale: nonBlank('Why an earlier stage must be redone.'),
      })
      .describe('Return to an earlier stage.'),
  ])
  .describe('What the pipeline does next: advance, rerun this stage, or route back to an earlier stage.');
/** A collector's decision on what the pipeline does next. */
export type CollectorDecision = z.infer<typeof CollectorDecision>;

/** Consolidation fields a collector model fills in (the ConsolidationTemplate's content). */
export const consolidationContentShape = {
  inputs: z.array(InputReference).min(1).describe('Every input consumed; at least one, ids unique.'),
  mergeStrategy: nonBlank('How the inputs were merged.'),
  conflictResolutions: z
    .array(ConflictResolution)
    .describe('Conflicts between inputs and how each was resolved; may be empty.'),
  aggregatedMetrics: MetricMap.describe('Aggregated numeric metrics, e.g. {"filesCovered": 12}.'),
  consolidatedOutput: nonBlank('The consolidated summary of this stage.'),
  decision: CollectorDecision,
};

/** Consolidation fields the pipeline stamps on a collector's result (version, chain, metadata, its own id). */
export function consolidationRecordShape(collector: AgentType) {
  return {
    schemaVersion: SemVer,
    upstreamContextChain: z.array(ContextId).describe('Context ids from the workflow start to this result.'),
    metadata: StringMap.describe('Training metadata.'),
    resultId: contextIdOf(collector).describe(`Id of this result; names the ${collector}.`),
  };
}

type ConsolidationContent = z.infer<z.ZodObject<typeof consolidationContentShape>>;

/** Reports every id that the `listField` items cite under `idsField` and that is not one of the collector's inputs. */
export function requireCitedInputs<IdsField extends string>(
  ctx: z.RefinementCtx,
  inputs: readonly InputReference[],
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

/**
 * ConsolidationTemplate rules every collector result obeys: unique inputs, conflicts cite only
 * inputs, and a route-back targets a stage earlier than the collector's own.
 */
export function checkConsolidation(value: ConsolidationContent, stage: PipelineStage, ctx: z.RefinementCtx): void {
  requireUnique(ctx, value.inputs, input => input.inputContextId, ['inputs'], 'inputContextId');
  requireCitedInputs(ctx, value.inputs, value.conflictResolutions, 'conflictResolutions', 'conflictingInputs');
  if (value.decision.kind === 'route_back' && !isEarlierStage(value.decision.target, stage)) {
    addIssue(
      ctx,
      ['decision', 'target'],
      `a ${stage} collector can only route back to an earlier stage, not ${value.decision.target}`,
    );
  }
}

/** Curated view of a collector's consolidation metadata for downstream prompts. */
export const ConsolidationSummary = z
  .object({
    ...consolidationContentShape,
    inputs: z.array(InputReference).describe('Curated input references; may be empty.'),
    upstreamContextChain: z
      .array(ContextId)
      .min(1)
      .describe('Context ids from the workflow start to the collector result.'),
    metadata: StringMap.describe('Training metadata.'),
  })
  .describe('Curated consolidation metadata.');
/** Curated view of a collector's consolidation metadata. */
export type ConsolidationSummary = z.infer<typeof ConsolidationSummary>;
