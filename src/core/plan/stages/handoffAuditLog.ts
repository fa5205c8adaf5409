import type { ValidationError } from '../handoff/validationError';
import type { AuditFinding } from '../run/runState';

/** What the handoff audit found during one pass through a stage: every handoff counted, every finding kept. */
export class HandoffAuditLog {
  private count = 0;
  private readonly found: AuditFinding[] = [];

  record(handoffId: string, agentId: string, findings: readonly ValidationError[]): void {
    this.count++;
    this.found.push(...findings.map(finding => ({ ...finding, handoffId, agentId })));
  }

  get handoffs(): number {
    return this.count;
  }

  get findings(): readonly AuditFinding[] {
    return this.found;
  }
}
