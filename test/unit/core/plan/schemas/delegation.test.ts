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
});
