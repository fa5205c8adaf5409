import assert from 'node:assert/strict';
import { filesCitedBy } from '../../../../../src/core/plan/drafts/discoveryCollectorRequest';
import { citableFiles, ENUM_CAP } from '../../../../../src/core/plan/schemas/vocabulary';
import type { DiscoveryReport } from '../../../../../src/core/plan/schemas/discovery';
import { discoveryReportDraft, fixtureReader, pipelineModel, requestText } from '../../../../support/pipelineScript';
import { runFixture } from '../stages/harness';

const files = (count: number) => new Set(Array.from({ length: count }, (_, i) => `src/m${i}.ts`));

describe('citableFiles: what a reply may cite', () => {
  it('is every visible file while they fit in one enum', () => {
    const visible = files(ENUM_CAP);
    assert.equal(citableFiles(visible, ['src/m1.ts']), visible);
  });

  it('past the cap, the visible files the agent was shown, and nothing it was not', () => {
    const visible = files(ENUM_CAP + 1);
    assert.deepEqual(
      [...citableFiles(visible, ['src/m3.ts', 'src/m1.ts', 'node_modules/x.js', 'src/m3.ts'])],
      ['src/m3.ts', 'src/m1.ts'],
    );
  });

  it('past the cap, at most ENUM_CAP of them, those shown first kept', () => {
    const visible = files(ENUM_CAP * 2);
    const citable = citableFiles(visible, [...visible].reverse());
    assert.equal(citable.size, ENUM_CAP);
    assert.ok(citable.has(`src/m${ENUM_CAP * 2 - 1}.ts`));
    assert.ok(!citable.has('src/m0.ts'));
  });

  it('past the cap with nothing shown, every visible file (described, not listed)', () => {
    const visible = files(ENUM_CAP + 1);
    assert.equal(citableFiles(visible, ['gone.ts']), visible);
  });

  it("past the cap, a discovery agent may cite each sample file its prompt names, a path with ', ' included", async () => {
    const wide: Record<string, string> = { 'wide/a, b.ts': 'export const ab = 1;' };
    for (let i = 0; i < ENUM_CAP; i++) wide[`wide/f${String(i).padStart(3, '0')}.ts`] = `export const f = ${i};`;
    const model = pipelineModel();
    await runFixture(model, { reader: fixtureReader(wide) });
    const report = model.requests.find(
      request =>
        request.tools.some(tool => tool.name === 'discovery_report') && requestText(request).includes('wide/a, b.ts'),
    );
    assert.ok(report, 'the agent of the wide/ area was asked for its report');
    const schema = JSON.stringify(report.tools.find(tool => tool.name === 'discovery_report')?.inputSchema);
    assert.ok(schema.includes('"wide/a, b.ts"'), 'the file is listed as citable');
    assert.ok(schema.includes('"wide/f023.ts"') && !schema.includes('"wide/f024.ts"'), 'the 25 sample files, no more');
  });
});

describe('filesCitedBy', () => {
  it("lists a report's references, diagram nodes, queries' expected files and scored files", () => {
    const draft = discoveryReportDraft('src/app.ts');
    // Only the cited fields are read: the draft with a diagram stands in for a stamped report.
    const report = {
      ...draft,
      diagrams: [{ diagramId: 'd-1', nodes: [{ nodeId: 'n', label: 'n', filePath: 'lib/format.ts' }], edges: [] }],
    } as unknown as DiscoveryReport;
    const cited = new Set(filesCitedBy(report));
    assert.ok(cited.has('src/app.ts'));
    assert.ok(cited.has('lib/format.ts'));
    for (const query of report.generatedQueries)
      for (const path of query.expectedResultPaths) assert.ok(cited.has(path));
  });
});
