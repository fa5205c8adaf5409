import type { SessionLog } from '../../core/council/sessionLog';

/** The typed result `--json` prints; `stopped`: why the session stopped before its answer (it is saved). */
export function sessionJson(log: SessionLog, file: string, stopped?: string) {
  const context = log.snapshot.context;
  return {
    sessionId: log.sessionId,
    state: log.state,
    decision: context.requestText,
    council: context.participants.filter(p => p.type === 'persona').map(p => p.name),
    questions: context.questions.map(q => ({
      question: q.question,
      recommendedAnswer: q.recommendedAnswer ?? null,
      status: q.status,
      answer: context.answers.find(a => a.questionId === q.questionId && !a.skipCommand)?.answer ?? null,
    })),
    assumptions: context.assumptionLog.filter(a => !a.withdrawal).map(a => a.assumption),
    debateCycles: context.debateCycles,
    answer: context.finalAnswer ?? null,
    spent: log.spent,
    file,
    ...(stopped === undefined ? {} : { stopped }),
  };
}
