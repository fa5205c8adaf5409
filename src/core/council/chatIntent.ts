import { councilStepPending, type SessionState } from '../session/selectors';
import type { CouncilCommand } from './commands';

/** The slash commands of `@council` (package.json `chatParticipants[0].commands`). */
export const SLASH = {
  debate: 'debate',
  personas: 'personas',
  assumptions: 'assumptions',
  status: 'status',
  cancel: 'cancel',
  newSession: 'new',
  accept: 'accept',
  skip: 'skip',
  skipAll: 'skipall',
  more: 'more',
  revisit: 'revisit',
  extend: 'extend',
  retry: 'retry',
  plan: 'plan',
  workflow: 'workflow',
  open: 'open',
  recover: 'recover',
  record: 'record',
  decisions: 'decisions',
} as const;

/** What to type in the chat to continue a stored session (e.g. one `council_deliberate` ran) in `@council`. */
export function openSessionCommand(sessionId: string): string {
  return `@council /${SLASH.open} ${sessionId}`;
}

/** The state of the thread's current session (`none`: the thread has none), as far as routing a chat request is concerned. */
export type SessionPhase = 'none' | SessionState;

/** What a chat request asks for. */
export type ChatIntent =
  | { readonly kind: 'newSession'; readonly request: string; readonly skipClarification: boolean }
  | { readonly kind: 'turn'; readonly command: CouncilCommand }
  | { readonly kind: 'show'; readonly what: 'status' | 'assumptions' | 'personas' }
  /** `/new` without a request: forget the thread's session and wait for one. */
  | { readonly kind: 'reset' }
  | { readonly kind: 'plan'; readonly goal: string }
  /** `/workflow [name goal | action run-id [text]]`: list, run or continue a YAML workflow. */
  | { readonly kind: 'workflow'; readonly text: string }
  /** `/open <sessionId>`: make this thread continue a stored session (e.g. one an agent ran through the tool). */
  | { readonly kind: 'open'; readonly sessionId: string }
  /** `/record`: write the thread's completed decision as a record in the team's decision folder (after confirming). */
  | { readonly kind: 'record' }
  /** `/decisions [query]`: the workspace's decision records, or those that bear on `query`. */
  | { readonly kind: 'decisions'; readonly query: string }
  /** Nothing to do; `message` says why and what to do instead. */
  | { readonly kind: 'explain'; readonly message: string };

const RESUME_WORDS = /^(retry|try again|continue|resume)\.?$/i;
/** A reply that is only a skip keyword (spec 004: "Skip question" or equivalent) skips the open question. */
const SKIP_ONE =
  /^(?:skip|pass|defer|later|skip (?:it|this|this one|this question|the question)|ask (?:me )?later)[.!]?$/i;
/** "skip all" and the like skip every remaining question. */
const SKIP_ALL = /^skip (?:all|the rest|everything|the remaining(?: questions)?|remaining(?: questions)?)[.!]?$/i;

function needsSession(phase: SessionPhase, command: CouncilCommand): ChatIntent {
  return phase === 'none'
    ? {
        kind: 'explain',
        message: 'There is no council session in this chat yet. Ask `@council` a question to start one.',
      }
    : { kind: 'turn', command };
}

/** Routes a chat request (slash command + prompt) given the thread's session phase. */
export function chatIntent(slash: string | undefined, prompt: string, phase: SessionPhase): ChatIntent {
  const text = prompt.trim();
  switch (slash) {
    case SLASH.newSession:
      return text ? { kind: 'newSession', request: text, skipClarification: false } : { kind: 'reset' };
    case SLASH.debate:
      if (text) return { kind: 'newSession', request: text, skipClarification: true };
      return phase === 'clarifying'
        ? { kind: 'turn', command: { kind: 'skipAll' } }
        : {
            kind: 'explain',
            message:
              'Add your request after `/debate`, e.g. `/debate Should we adopt GraphQL?`, and the council debates it without clarifying questions.',
          };
    case SLASH.status:
    case SLASH.assumptions:
    case SLASH.personas:
      return { kind: 'show', what: slash };
    case SLASH.plan:
      return { kind: 'plan', goal: text };
    case SLASH.workflow:
      return { kind: 'workflow', text };
    case SLASH.open: {
      const sessionId = text.split(/\s+/)[0] ?? '';
      return sessionId
        ? { kind: 'open', sessionId }
        : {
            kind: 'explain',
            message:
              'Add the session id after `/open`, e.g. `/open 1234abcd`: the council tool names it in its result.',
          };
    }
    case SLASH.record:
      return phase === 'none'
        ? {
            kind: 'explain',
            message: 'There is no council decision in this chat to record yet. Ask `@council` a question first.',
          }
        : { kind: 'record' };
    case SLASH.decisions:
      return { kind: 'decisions', query: text };
    case SLASH.cancel:
      return needsSession(phase, { kind: 'cancel' });
    case SLASH.accept:
      return needsSession(phase, { kind: 'accept' });
    case SLASH.skip:
      return needsSession(phase, { kind: 'skip' });
    case SLASH.skipAll:
      return needsSession(phase, { kind: 'skipAll' });
    case SLASH.more:
      return needsSession(phase, { kind: 'more' });
    case SLASH.revisit:
      return needsSession(phase, { kind: 'revisit' });
    case SLASH.extend:
      return needsSession(phase, { kind: 'extend' });
    case SLASH.retry:
      return needsSession(phase, { kind: 'retry' });
    default:
      break;
  }
  if (phase === 'clarifying' && SKIP_ALL.test(text)) return { kind: 'turn', command: { kind: 'skipAll' } };
  if (phase === 'clarifying' && SKIP_ONE.test(text)) return { kind: 'turn', command: { kind: 'skip' } };
  if (phase === 'clarifying' && text) return { kind: 'turn', command: { kind: 'answer', text } };
  if (phase !== 'none' && councilStepPending(phase) && (!text || RESUME_WORDS.test(text)))
    return { kind: 'turn', command: { kind: 'retry' } };
  if (!text) return { kind: 'explain', message: 'Ask `@council` a question, or describe a task, to start a session.' };
  return { kind: 'newSession', request: text, skipClarification: false };
}
