import { DelegationTemplate, DelegationTemplateDraft } from '../../../../../src/core/plan/schemas/delegation';
import { delegationTemplate, idOf } from './fixtures';
import { assertIssue, assertValid } from './issues';

describe('DelegationTemplate', () => {
  it('accepts a discovery orchestrator assigning discovery agents', () => {
    assertValid(DelegationTemplate, delegationTemplate());
  });

  it('needs at least one assignment', () => {
    assertIssue(DelegationTemplateDraft, { ...delegationTemplate(), assignments: [] }, 'assignments', '>=1');
  });

  it('needs unique agent ids and selection ids', () => {
    const template = delegationTemplate();
    template.assignments[1]!.agentId = 'discovery-1';
    template.contextSelections.push({ ...template.contextSelections[0]! });
    assertIssue(DelegationTemplate, template, 'assignments.1.agentId', 'duplicate agentId "discovery-1"');
    assertIssue(DelegationTemplate, template, 'contextSelections.1.selectionId', 'duplicate selectionId "sel-1"');
  });

  it('lets an orchestrator assign only the agents of its stage', () => {
    const template = delegationTemplate();
    template.assignments[0]!.agentType = 'planning-agent';
    assertIssue(
      DelegationTemplate,
      template,
      'assignments.0.agentType',
      'discovery-orchestrator may assign only discovery-agent',
    );
  });

  it('lets the top orchestrator assign stage orchestrators', () => {
    const template = delegationTemplate();
    template.resultId = idOf('orchestrator');
    template.assignments = [{ ...template.assignments[0]!, agentType: 'discovery-orchestrator' }];
    assertValid(DelegationTemplate, template);
  });

  it('must come from an orchestrator', () => {
    assertIssue(
      DelegationTemplate,
      { ...delegationTemplate(), resultId: idOf('discovery-agent') },
      'resultId',
      'must be one of',
    );
  });
});
