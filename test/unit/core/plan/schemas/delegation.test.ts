import { strict as assert } from 'node:assert';
import { DelegationTemplate } from '../../../../../src/core/plan/schemas/delegation';
import { delegationTemplate, idOf } from './fixtures';
import { assertIssue, assertValid } from './issues';

describe('DelegationTemplate', () => {
  it('accepts a discovery orchestrator assigning discovery agents', () => {
    assertValid(DelegationTemplate, delegationTemplate());
  });

  it('needs at least one assignment', () => {
    assertIssue(DelegationTemplate, { ...delegationTemplate(), assignments: [] }, 'assignments', '>=1');
  });

  it('must come from an orchestrator', () => {
    assertIssue(
      DelegationTemplate,
      { ...delegationTemplate(), resultId: idOf('discovery-agent') },
      'resultId',
      'must be one of',
    );
  });

  it('a stored delegation that gives two agents one id is refused where it is read', () => {
    const template = delegationTemplate();
    const [first, second] = template.assignments;
    assert.ok(first && second);
    assertIssue(
      DelegationTemplate,
      { ...template, assignments: [first, { ...second, agentId: first.agentId }] },
      'assignments.1.agentId',
      'duplicate agentId "discovery-1"',
    );
  });
});
