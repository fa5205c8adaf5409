import { z } from 'zod';
import type { AgentType } from './agentType';
import { ContextId, contextIdOf } from './contextId';
import { StringMap } from './common';
import { SemVer } from './version';

/**
 * Fields the pipeline stamps on a model's draft to make an agent's record: the schema version, the
 * record's own id and the upstream context it answers. `noun` names the record in the descriptions
 * ("report", "result", "delegation"); `resultId` says which agent types may produce it.
 */
export function recordStamp(noun: string, resultId: z.ZodString) {
  return {
    schemaVersion: SemVer,
    resultId,
    upstreamContextId: ContextId.describe(`Id of the upstream context this ${noun} answers.`),
  };
}

/** The stamp of a record that one agent type produces, e.g. a planning agent's result. */
export function agentRecordStamp(agent: AgentType, noun = 'result') {
  return recordStamp(noun, contextIdOf(agent).describe(`Id of this ${noun}; names a ${agent}.`));
}

/** The stamp of a collector's result: version, chain, metadata and its own id. */
export function collectorRecordStamp(collector: AgentType) {
  return {
    schemaVersion: SemVer,
    upstreamContextChain: z.array(ContextId).describe('Context ids from the workflow start to this result.'),
    metadata: StringMap.describe('Training metadata.'),
    resultId: contextIdOf(collector).describe(`Id of this result; names the ${collector}.`),
  };
}

/** What the pipeline stamps on every agent result: the version, the result's id and the delegation it answers. */
export type AgentRecordStamp = z.infer<z.ZodObject<ReturnType<typeof recordStamp>>>;
/** What the pipeline stamps on every collector result, beside the model's draft. */
export type CollectorRecordStamp = z.infer<z.ZodObject<ReturnType<typeof collectorRecordStamp>>>;
