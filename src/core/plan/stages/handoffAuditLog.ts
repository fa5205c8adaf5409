import type { ValidationError } from '../handoff/validationError';
import type { AgentAudit } from '../../workflow/engine/workflowRunState';

/** What the handoff audit read and found during one pass through a stage, as the engine records it with the phase. */
export class HandoffAuditLog {
  private checked = 0;
  private readonly findings: AgentAudit['findings'] = [];

  record(agentId: string, findings: readonly ValidationError[]): void {
    this.checked++;
    for (const finding of findings)
      this.findings.push({
        code: finding.error_code,
        severity: finding.severity,
        message: finding.message,
        where: finding.path,
        agent: agentId,
      });
  }

  get audit(): AgentAudit {
    return { checked: this.checked, findings: [...this.findings] };
  }
}
