import { dedupeArray, isObject, objectsAt, type JsonObject } from '../../llm/replyNormalizing';
import { ticketCollectorSchema } from '../schemas/collectors';
import type { CollectorVocabulary } from '../schemas/consolidation';
import { draftRequest } from './draftRequest';
import { dropItems, dropUnknownStrings, objectAt, textAt, type Note, textsAt } from './normalizing';

/**
 * Consolidation fixes: inputs once each and only this request's, each with its type (not asked: the id names it); conflicts cite listed inputs only (a conflict
 * left with none is dropped); a rerun names each known agent once.
 */
export function normalizeConsolidation(reply: JsonObject, vocabulary: CollectorVocabulary, note: Note): void {
  dedupeArray(reply, 'inputs', 'inputContextId', 'input', note);
  const inputIds = new Set(vocabulary.inputIds);
  dropItems(
    reply,
    'inputs',
    input => !isObject(input) || typeof input['inputContextId'] !== 'string' || inputIds.has(input['inputContextId']),
    input => `dropped input "${String(textAt(input, 'inputContextId'))}": not an input of this collector`,
    note,
  );
  // Not asked (the schema sent leaves it out): the agent type a context id names (`wf-…/{agentType}/{n}/{time}`).
  for (const input of objectsAt(reply, 'inputs')) {
    const id = input['inputContextId'];
    if (input['inputType'] === undefined && typeof id === 'string') input['inputType'] = id.split('/')[1] ?? id;
  }
  const listed = new Set(textsAt(reply, 'inputs', 'inputContextId'));
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

/** The ticket collector request: its inputs, its agents, the stages it may route back to. */
export function ticketCollectorRequest(vocabulary: CollectorVocabulary) {
  return draftRequest(ticketCollectorSchema(vocabulary), (reply, note) =>
    normalizeConsolidation(reply, vocabulary, note),
  );
}
