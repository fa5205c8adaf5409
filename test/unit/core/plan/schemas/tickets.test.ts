import { TicketAgentResult, ticketAgentSchema } from '../../../../../src/core/plan/schemas/tickets';
import { ticketAgentResult } from './fixtures';
import { assertIssue, assertValid } from './issues';

const TicketAgentResultDraft = ticketAgentSchema();

/** A draft proposing only `change`, whose issues sit under `proposedChanges.0`. */
const proposing = (change: unknown) => ({ ...ticketAgentResult(), proposedChanges: [change] });

describe('TicketAgentResult', () => {
  it('accepts a plan with create, modify and delete changes', () => {
    assertValid(TicketAgentResult, ticketAgentResult());
  });

  it('accepts a modification given as full new content', () => {
    const change = { kind: 'modify', path: 'src/a.ts', edit: { mode: 'full_content', content: '' }, rationale: 'x' };
    assertValid(TicketAgentResult, proposing(change));
  });

  it('rejects an edit mode and its fields mixed up', () => {
    const mixed = {
      kind: 'modify',
      path: 'src/a.ts',
      edit: { mode: 'full_content', replacements: [] },
      rationale: 'x',
    };
    assertIssue(TicketAgentResult, proposing(mixed), 'proposedChanges.0.edit.content', '');
    const rename = { kind: 'rename', path: 'src/a.ts', rationale: 'x' };
    assertIssue(TicketAgentResult, proposing(rename), 'proposedChanges.0.kind', '');
  });

  it('rejects inverted and overlapping line ranges', () => {
    const inverted = {
      kind: 'modify',
      path: 'src/a.ts',
      edit: { mode: 'replace_ranges', replacements: [{ startLine: 5, endLine: 4, newText: '' }] },
      rationale: 'x',
    };
    const at = 'proposedChanges.0.edit.replacements';
    assertIssue(TicketAgentResult, proposing(inverted), `${at}.0.endLine`, 'before startLine 5');
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
    assertIssue(TicketAgentResult, proposing(overlapping), `${at}.2`, 'lines 12-14 overlap lines 10-12');
  });

  it('accepts adjacent line ranges', () => {
    const change = ticketAgentResult().proposedChanges[1]!;
    const replacements = [
      { startLine: 1, endLine: 2, newText: 'a' },
      { startLine: 3, endLine: 3, newText: 'b' },
    ];
    assertValid(TicketAgentResult, proposing({ ...change, edit: { mode: 'replace_ranges', replacements } }));
  });

  it("with a request's vocabulary, modifies only the files it may change and answers only its ticket", () => {
    const request = ticketAgentSchema({ files: new Set(['src/app/main.ts']), ticketId: 'T-1' });
    const {
      schemaVersion: _v,
      resultId: _r,
      upstreamContextId: _u,
      discoveryResultId: _d,
      upstreamContextChain: _c,
      ...draft
    } = ticketAgentResult();
    const change = { kind: 'delete', path: 'src/other.ts', rationale: 'x' };
    assertIssue(request, { ...draft, proposedChanges: [change] }, 'proposedChanges.0.path', '');
    assertIssue(request, { ...draft, ticketId: 'T-2' }, 'ticketId', '');
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
