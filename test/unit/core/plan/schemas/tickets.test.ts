import {
  ProposedChange,
  TicketAgentResult,
  TicketAgentResultDraft,
} from '../../../../../src/core/plan/schemas/tickets';
import { ticketAgentResult } from './fixtures';
import { assertIssue, assertValid } from './issues';

describe('TicketAgentResult', () => {
  it('accepts a plan with create, modify and delete changes', () => {
    assertValid(TicketAgentResult, ticketAgentResult());
  });

  it('accepts a modification given as full new content', () => {
    assertValid(ProposedChange, {
      kind: 'modify',
      path: 'src/a.ts',
      edit: { mode: 'full_content', content: '' },
      rationale: 'empty the file',
    });
  });

  it('rejects an edit mode and its fields mixed up', () => {
    assertIssue(
      ProposedChange,
      { kind: 'modify', path: 'src/a.ts', edit: { mode: 'full_content', replacements: [] }, rationale: 'x' },
      'edit.content',
      '',
    );
    assertIssue(ProposedChange, { kind: 'rename', path: 'src/a.ts', rationale: 'x' }, 'kind', '');
  });

  it('rejects inverted and overlapping line ranges', () => {
    const inverted = {
      kind: 'modify',
      path: 'src/a.ts',
      edit: { mode: 'replace_ranges', replacements: [{ startLine: 5, endLine: 4, newText: '' }] },
      rationale: 'x',
    };
    assertIssue(ProposedChange, inverted, 'edit.replacements.0.endLine', 'before startLine 5');
    const overlapping = {
      ...inverted,
      edit: {
        mode: 'replace_ranges',
        replacements: [
          { startLine: 10, endLine: 12, newText: 'b' },
          { startLine: 1, endLine: 3, newText: 'a' },
          { startLine: 12, endLine: 14, newText: 'c' },
        ],
      },
    };
    assertIssue(ProposedChange, overlapping, 'edit.replacements.2', 'lines 12-14 overlap lines 10-12');
  });

  it('accepts adjacent line ranges', () => {
    const change = ticketAgentResult().proposedChanges[1]!;
    assertValid(ProposedChange, {
      ...change,
      edit: {
        mode: 'replace_ranges',
        replacements: [
          { startLine: 1, endLine: 2, newText: 'a' },
          { startLine: 3, endLine: 3, newText: 'b' },
        ],
      },
    });
  });

  it('requires workspace-relative paths and one change per path', () => {
    const result = ticketAgentResult();
    result.proposedChanges[2]!.path = '/etc/hosts';
    assertIssue(TicketAgentResult, result, 'proposedChanges.2.path', 'not absolute');
    const twice = ticketAgentResult();
    twice.proposedChanges[2]!.path = 'src/app/main.ts';
    assertIssue(TicketAgentResultDraft, twice, 'proposedChanges.2.path', 'duplicate path "src/app/main.ts"');
  });

  it('needs a non-empty plan and upstream chain', () => {
    const result = ticketAgentResult();
    result.implementationPlan = [];
    result.upstreamContextChain = [];
    assertIssue(TicketAgentResult, result, 'implementationPlan', '>=1');
    assertIssue(TicketAgentResult, result, 'upstreamContextChain', '>=1');
  });
});
