import * as vscode from 'vscode';
import { decisionOfSession } from '../../core/council/sessionDecision';
import { supersededRecord } from '../../core/council/precedentStance';
import type { SessionLog } from '../../core/council/sessionLog';
import { spendSummary } from '../../core/llm/spending/spendText';
import { DECISION_COMMAND } from './decisionCommands';
import type { RecordDecisionArgs, RecordDecisionResult } from './recordDecision';

/**
 * The "Record this decision" step of every door in VS Code: a completed session's decision, built from what the
 * session stored (no model request), handed to `council.recordDecision`, which shows the draft and writes only after
 * the user confirms. `refused` says why there is nothing to record yet.
 */
export async function recordSessionDecision(
  log: SessionLog,
  fallbackModel: string,
): Promise<RecordDecisionResult | { readonly refused: string }> {
  const model = log.ledger.entries.find(line => line.model)?.model ?? fallbackModel;
  const decision = decisionOfSession(log.snapshot, { model, cost: spendSummary(log.spent) });
  if (!decision)
    return {
      refused: `Session ${log.sessionId} has no final answer yet (it is ${log.snapshot.value}): a decision is recorded once the council has answered.`,
    };
  // A decision against an accepted record supersedes it: both records then say so (the user sees both first).
  const superseded = supersededRecord(log.snapshot);
  const args: RecordDecisionArgs = { decision, ...(superseded ? { supersedes: superseded.path } : {}) };
  return (
    (await vscode.commands.executeCommand<RecordDecisionResult>(DECISION_COMMAND.record, args)) ?? {
      written: false,
      message: 'The decision record command did not run.',
    }
  );
}
