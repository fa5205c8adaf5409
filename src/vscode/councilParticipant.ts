import { damagedSessionChoice, mustChoose, recoverable, recoverSession } from './chat/damagedSession';
import * as vscode from 'vscode';
import { chatIntent, SLASH, type ChatIntent } from '../core/council/chatIntent';
import { assumptionsMarkdown, personasMarkdown, statusMarkdown } from '../core/council/wording/transcript';
import { attachedContext } from './chat/chatReferences';
import { councilChatTurn, type CouncilTurnEnvironment } from './chat/councilChatTurn';
import { councilMetadata, newerSessionMetadata } from './chat/councilResult';
import type { PlanHandler } from './deepWork/planHandler';
import type { WorkflowHandler } from './deepWork/workflowHandler';
import { parsePlanRequest } from './deepWork/planRequest';
import { parseWorkflowRequest } from './deepWork/workflowRequest';
import { answerInChat, chatCall } from './deepWork/deepWorkChat';
import { loadCouncilPersonas } from './personas/personaSource';
import { readCouncilSettings } from './settings';
import { storedSession, threadSession } from './chat/threadSession';
import { rememberChatModel, type ModelMemento } from './languageModel/toolModel';
import { decisionsMarkdown } from '../core/council/decisionsList';
import { findDecisions } from './decisions/listDecisions';
import { recordSessionDecision } from './decisions/recordSession';
import { debateAheadOf } from './chat/debateAheadOf';

/** Must match `contributes.chatParticipants[0].id` in package.json. */
export const PARTICIPANT_ID = 'council.council';

/** What the participant needs from the extension. */
export interface CouncilEnvironment extends CouncilTurnEnvironment {
  /** `/plan` and the "Plan this" follow-up (the deep-work pipeline), when available. */
  readonly plan?: PlanHandler;
  /** `/workflow`: YAML workflows (spec 002), when available. */
  readonly workflow?: WorkflowHandler;
  /** Where the chat's model is remembered for Council's tools (their model rule's fallback). */
  readonly models?: ModelMemento;
}

/**
 * The `@council` request handler: restores the thread's session, reads what the request asks for and routes it:
 * `/plan` and `/workflow` to the deep-work handlers, `/status`, `/assumptions`, `/personas` and `/open` answered
 * here, and everything else to one council turn (councilChatTurn.ts).
 */
export function councilHandler(env: CouncilEnvironment): vscode.ChatRequestHandler {
  return async (request, chatContext, stream, token) => {
    // The user's last explicit choice in the model picker: Council's tools run on it when no setting names one.
    if (env.models) await rememberChatModel(env.models, request.model);
    const found = threadSession(chatContext.history, PARTICIPANT_ID, env.store);
    // Why the thread's session could not be restored at all (a damaged one with an older copy can be recovered).
    const unrestored =
      found.kind === 'missing'
        ? 'The session was not found in storage.'
        : found.kind === 'damaged' && !found.older
          ? found.error
          : undefined;
    if (unrestored !== undefined && (found.kind === 'missing' || found.kind === 'damaged'))
      env.log.logError(new Error(unrestored), `restoring session ${found.sessionId}`);
    if (recoverable(found) && request.command === SLASH.recover) return recoverSession(found, env.store, stream);
    // A damaged or missing session is never replaced in silence: the user reads what happened and chooses.
    const broken = mustChoose(found, request.command);
    if (broken) return damagedSessionChoice(broken, stream);
    if (found.kind === 'newer' && request.command !== SLASH.newSession) {
      // Saved by a newer Council: never continue or overwrite it; the next turn reports it again.
      return { errorDetails: { message: found.error.message }, metadata: newerSessionMetadata(found.sessionId) };
    }
    const current = found.kind === 'found' ? found.log : undefined;
    const intent: ChatIntent = chatIntent(request.command, request.prompt, current?.state ?? 'none');
    const settings = readCouncilSettings();
    // What the user attached (and earlier turns of this session did): read once, bounded, cited in the response.
    const attached =
      intent.kind === 'plan' || intent.kind === 'workflow' || intent.kind === 'newSession' || intent.kind === 'turn'
        ? await attachedContext(
            request,
            chatContext.history,
            PARTICIPANT_ID,
            intent.kind === 'newSession' ? undefined : current,
            stream,
            token,
          )
        : [];
    switch (intent.kind) {
      case 'explain':
        stream.markdown(
          unrestored !== undefined
            ? `This chat's council session could not be restored (${unrestored}). ${intent.message}`
            : intent.message,
        );
        return { metadata: councilMetadata(current) };
      case 'reset':
        stream.markdown('Starting fresh. What should the council discuss?');
        return { metadata: councilMetadata(undefined) };
      case 'plan':
        if (!env.plan) {
          stream.markdown('Planning is not available in this build.');
          return { metadata: councilMetadata(current) };
        }
        return answerInChat(
          stream,
          await env.plan(
            parsePlanRequest(intent.goal),
            current,
            chatCall(request, stream, token, [...(current?.attached ?? []), ...attached], settings),
          ),
        );
      case 'workflow':
        if (!env.workflow) {
          stream.markdown('Workflows are not available in this build.');
          return { metadata: councilMetadata(current) };
        }
        return answerInChat(
          stream,
          await env.workflow(
            parseWorkflowRequest(intent.text),
            chatCall(request, stream, token, [...(current?.attached ?? []), ...attached], settings),
          ),
        );
      case 'show': {
        if (intent.what === 'personas') {
          const registry = await loadCouncilPersonas(env.context.extensionUri, settings);
          stream.markdown(personasMarkdown(current?.snapshot, registry.personas));
          return { metadata: councilMetadata(current) };
        }
        if (!current) {
          stream.markdown('There is no council session in this chat yet. Ask `@council` a question to start one.');
          return { metadata: councilMetadata(undefined) };
        }
        stream.markdown(
          intent.what === 'status'
            ? statusMarkdown(
                current.snapshot,
                { totals: current.spent, limits: settings.spending.session, ledger: current.ledger.entries },
                await debateAheadOf(current, request.model, settings, env.store),
              )
            : assumptionsMarkdown(current.snapshot),
        );
        return { metadata: councilMetadata(current) };
      }
      case 'record': {
        if (!current) return { metadata: councilMetadata(current) };
        const recorded = await recordSessionDecision(current, request.model.name);
        stream.markdown('refused' in recorded ? recorded.refused : recorded.message);
        return { metadata: councilMetadata(current) };
      }
      case 'decisions': {
        if (!vscode.workspace.isTrusted) {
          stream.markdown('Council reads decision records only in a trusted workspace. Trust the workspace first.');
          return { metadata: councilMetadata(current) };
        }
        const { folder, catalog } = await findDecisions();
        stream.markdown(decisionsMarkdown(folder.folder, catalog, intent.query));
        return { metadata: councilMetadata(current) };
      }
      case 'open': {
        // The response's metadata names the opened session, so the thread's next turns continue it.
        const opened = storedSession(env.store, intent.sessionId);
        if (opened.kind === 'newer')
          return { errorDetails: { message: opened.error.message }, metadata: councilMetadata(current) };
        if (opened.kind !== 'found') {
          stream.markdown(
            `This session cannot be opened: ${opened.kind === 'damaged' ? opened.error : `no session \`${opened.kind === 'missing' ? opened.sessionId : intent.sessionId}\` is stored in this workspace.`}`,
          );
          return { metadata: councilMetadata(current) };
        }
        const snapshot = opened.log.snapshot;
        stream.markdown(
          `Opened session \`${opened.log.sessionId}\` in this chat; what you ask \`@council\` here next continues it.\n\n${statusMarkdown(snapshot, { totals: opened.log.spent, limits: settings.spending.session }, await debateAheadOf(opened.log, request.model, settings, env.store))}`,
        );
        if (snapshot.context.finalAnswer) stream.markdown(`\n\n${snapshot.context.finalAnswer}\n`);
        return { metadata: councilMetadata(opened.log) };
      }
      case 'newSession':
      case 'turn':
        return councilChatTurn(env, { request, stream, token, intent, current, attached, settings });
    }
  };
}
