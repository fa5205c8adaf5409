import type { SessionSnapshot } from '../../session/machine';
import { decisionOfSession } from '../sessionDecision';
import type { CouncilFacts } from './evalReport';

/** Whether the council debated beyond its first drafts, in the report's words. */
export function escalation(cycles: number): string {
  return cycles <= 1
    ? `no: the first drafts settled it (${cycles} cycle${cycles === 1 ? '' : 's'})`
    : `yes: ${cycles} debate cycles`;
}

/** The eval's facts read from the session itself (the `council` command's door: typed, no text parsed back). */
export function sessionEvalFacts(snapshot: SessionSnapshot): CouncilFacts {
  const decision = decisionOfSession(snapshot, { model: '', cost: '' });
  if (!decision) {
    const state = String(snapshot.value);
    return { escalated: escalation(snapshot.context.debateCycles), vote: `none (ended ${state})`, confidence: 'none' };
  }
  return {
    escalated: escalation(snapshot.context.debateCycles),
    // The report labels the line itself.
    vote: decision.vote.replace(/^Vote:\s*/, ''),
    confidence: `${Math.round(decision.confidence * 100)}% of the council backs "${decision.chosen}"`,
  };
}
