import { strict as assert } from 'node:assert';
import {
  DiscoveryReport,
  discoveryReportSchema,
  fileReference as fileReferenceSchema,
} from '../../../../../src/core/plan/schemas/discovery';
import { discoveryReport, fileReference, tag } from './fixtures';
import { assertIssue, assertValid } from './issues';

describe('DiscoveryReport', () => {
  it('accepts a complete report, and its content alone as a draft', () => {
    assertValid(DiscoveryReport, discoveryReport());
    const { schemaVersion: _v, resultId: _r, upstreamContextId: _u, ...draft } = discoveryReport();
    assertValid(discoveryReportSchema(), draft);
  });

  it("with a request's files, cites only those files", () => {
    const { schemaVersion: _v, resultId: _r, upstreamContextId: _u, ...draft } = discoveryReport();
    const cited = [...new Set(draft.fileReferences.map(ref => ref.filePath))];
    const request = discoveryReportSchema(new Set(cited.slice(1)));
    assertIssue(request, draft, 'fileReferences.0.filePath', '');
  });

  it('requires at least 5 semantic tags and 3 generated queries per report', () => {
    const fewTags = discoveryReport();
    fewTags.semanticTags.pop();
    assertIssue(DiscoveryReport, fewTags, 'semanticTags', '>=5');
    const fewQueries = discoveryReport();
    fewQueries.generatedQueries.pop();
    assertIssue(DiscoveryReport, fewQueries, 'generatedQueries', '>=3');
  });

  it('keeps relevance and confidence within 0..1', () => {
    const report = discoveryReport();
    report.fileReferences[0]!.relevanceScore = 1.5;
    report.semanticTags[0]!.confidence = -0.1;
    report.relevanceScores['src/app/main.ts'] = 2;
    assertIssue(DiscoveryReport, report, 'fileReferences.0.relevanceScore', '<=1');
    assertIssue(DiscoveryReport, report, 'semanticTags.0.confidence', '>=0');
    assertIssue(DiscoveryReport, report, 'relevanceScores.src/app/main.ts', '<=1');
  });

  it('rejects a file reference whose endLine is before its startLine, but accepts one line', () => {
    const schema = fileReferenceSchema();
    assertIssue(schema, { ...fileReference(), startLine: 9, endLine: 3 }, 'endLine', 'before startLine 9');
    assertValid(schema, { ...fileReference(), startLine: 4, endLine: 4 });
  });

  it('rejects paths outside the workspace', () => {
    const report = discoveryReport();
    report.fileReferences[1]!.filePath = '../other/secret.ts';
    assertIssue(DiscoveryReport, report, 'fileReferences.1.filePath', '".." segments');
  });

  it('requires finding ids to be unique across references, tags, queries and diagrams', () => {
    const report = discoveryReport();
    report.semanticTags[4]!.tagId = 'ref-2';
    assertIssue(DiscoveryReport, report, 'semanticTags.4.tagId', 'duplicate finding id "ref-2"');
  });

  it('requires cross links and tags to cite findings of the report', () => {
    const report = discoveryReport();
    report.crossLinks[0]!.targetReferenceId = 'ref-404';
    report.semanticTags[0] = tag('tag-1', ['ref-1', 'ghost']);
    assertIssue(DiscoveryReport, report, 'crossLinks.0.targetReferenceId', 'unknown finding "ref-404"');
    assertIssue(DiscoveryReport, report, 'semanticTags.0.appliedTo.1', 'unknown finding "ghost"');
  });

  it('rejects a cross link from a finding to itself', () => {
    const report = discoveryReport();
    report.crossLinks[0]!.targetReferenceId = 'ref-1';
    assertIssue(DiscoveryReport, report, 'crossLinks.0.targetReferenceId', 'two different findings');
  });

  it('scores only files the report references', () => {
    const report = discoveryReport();
    report.relevanceScores['src/unseen.ts'] = 0.3;
    assertIssue(DiscoveryReport, report, 'relevanceScores.src/unseen.ts', 'not in fileReferences');
  });

  it('requires diagram edges to join existing nodes', () => {
    const report = discoveryReport();
    report.diagrams[0]!.edges.push({ fromNodeId: 'n-main', toNodeId: 'n-db' });
    assertIssue(DiscoveryReport, report, 'diagrams.0.edges.1.toNodeId', 'unknown node "n-db"');
  });

  it('requires the result id to name a discovery agent', () => {
    const report = discoveryReport();
    report.resultId = report.upstreamContextId;
    assertIssue(DiscoveryReport, report, 'resultId', 'must be one of: discovery-agent');
  });

  it('rejects blank text and a malformed schema version', () => {
    const report = discoveryReport();
    report.architectureOverview = '   ';
    report.schemaVersion = '1.0';
    assertIssue(DiscoveryReport, report, 'architectureOverview', 'blank');
    assertIssue(DiscoveryReport, report, 'schemaVersion', 'semantic version');
  });

  it('rejects an unknown link type', () => {
    const report = discoveryReport() as unknown as { crossLinks: { linkType: string }[] };
    report.crossLinks[0]!.linkType = 'LIKES';
    assert.equal(DiscoveryReport.safeParse(report).success, false);
  });
});
