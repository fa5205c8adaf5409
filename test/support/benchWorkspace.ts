import type { ModelRequest } from '../../src/core/llm/languageModel';
import { discoveryReportDraft, FIXTURE_FILES, requestText } from './pipelineScript';
import { valueReply, type ScriptedReply } from './scriptedModel';

/**
 * The pipeline bench's workspace and discovery reports, shared with the tests that hold its figures: the fixture's
 * files and four folders of four 40-line modules (20 files), reports that cite the agent's own sample files with real
 * 12-line snippets (so full reports weigh what they would).
 */
export function benchFiles(): Record<string, string> {
  const files: Record<string, string> = { ...FIXTURE_FILES };
  for (const folder of ['src/core', 'src/ui', 'lib', 'test']) {
    for (let i = 1; i <= 4; i++) {
      files[`${folder}/module${i}.ts`] = Array.from(
        { length: 40 },
        (_, line) => `export const value${line} = ${line} * ${i}; // ${folder} module ${i}`,
      ).join('\n');
    }
  }
  return files;
}

/** A discovery report citing up to six of the agent's sample files of `files`, each with its first 12 lines. */
export function citingReport(files: Record<string, string>): (request: ModelRequest) => ScriptedReply {
  return (request: ModelRequest) => {
    const sample = /sampleFiles: ([^\n<]+)/.exec(requestText(request))?.[1] ?? 'src/app.ts';
    const paths = sample
      .split(', ')
      .filter(path => path in files)
      .slice(0, 6);
    const base = discoveryReportDraft(
      paths[0] ?? 'src/app.ts',
      `Area overview of ${paths.length} files: ${paths.join(', ')}.`,
    );
    const refs = paths.map((path, i) => ({
      referenceId: `ref-${i + 1}`,
      filePath: path,
      startLine: 1,
      endLine: 12,
      relevanceScore: 0.5 + i / 20,
      snippet: (files[path] ?? '').split('\n').slice(0, 12).join('\n'),
      tags: ['area'],
    }));
    return valueReply({ ...base, fileReferences: refs, relevanceScores: Object.fromEntries(paths.map(p => [p, 0.7])) });
  };
}
