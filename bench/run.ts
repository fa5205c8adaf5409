/**
 * Runs every benchmark and prints a combined summary:
 *   npx tsx bench/run.ts
 * The council bench always runs; `bench/pipeline.bench.ts` and `bench/workflow.bench.ts` run too when they exist and
 * export `main`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTable, main as councilMain, type SummaryRow } from './council.bench';

/** How one benchmark went, for the summary. */
interface BenchOutcome {
  readonly name: string;
  readonly status: 'ok' | 'skipped' | 'failed';
  readonly rows: readonly SummaryRow[];
}

/** A bench result's summary: its own `summary` rows if it has them, else its scalar fields (two levels deep). */
export function summaryRows(result: unknown): SummaryRow[] {
  if (isRecord(result) && Array.isArray(result.summary) && result.summary.every(isSummaryRow))
    return [...result.summary];
  const rows: SummaryRow[] = [];
  const visit = (value: unknown, path: string, depth: number) => {
    if (typeof value === 'number')
      rows.push({ metric: path, value: Number.isInteger(value) ? String(value) : value.toFixed(2) });
    else if (typeof value === 'string' || typeof value === 'boolean') rows.push({ metric: path, value: String(value) });
    else if (isRecord(value) && !Array.isArray(value) && depth < 2) {
      for (const [key, inner] of Object.entries(value)) visit(inner, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  visit(result, '', 0);
  return rows;
}

/** Plain names for a bench's raw fields, shown first in the summary (e.g. the pipeline's request count is /plan's). */
const ROW_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  pipeline: { calls: '/plan requests', ratio: '/plan wall / critical path' },
  workflow: { scriptMs: 'sandbox: ms per script', templateRatio: 'template workflow wall / critical path' },
};

/** Renames the rows `ROW_LABELS` knows for bench `name` and puts them first, the rest in their order. */
export function labelRows(name: string, rows: readonly SummaryRow[]): SummaryRow[] {
  const labels = ROW_LABELS[name] ?? {};
  const known = rows.filter(r => r.metric in labels).map(r => ({ metric: labels[r.metric]!, value: r.value }));
  return [...known, ...rows.filter(r => !(r.metric in labels))];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isSummaryRow(value: unknown): value is SummaryRow {
  return isRecord(value) && typeof value.metric === 'string' && typeof value.value === 'string';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs an optional bench module next to this file, if it exists and exports `main`. */
export async function runOptionalBench(name: string, file: string): Promise<BenchOutcome> {
  const url = new URL(file, import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    return {
      name,
      status: 'skipped',
      rows: [{ metric: 'not run', value: `bench/${file.replace(/^\.\//, '')} not found` }],
    };
  let mod: unknown;
  try {
    mod = await import(url.href);
  } catch (error) {
    return { name, status: 'failed', rows: [{ metric: 'could not load', value: describe(error) }] };
  }
  // A CommonJS-compiled module may expose its exports under `default` too.
  const main = isRecord(mod) ? (mod.main ?? (isRecord(mod.default) ? mod.default.main : undefined)) : undefined;
  if (typeof main !== 'function')
    return {
      name,
      status: 'skipped',
      rows: [{ metric: 'not run', value: `bench/${file.replace(/^\.\//, '')} exports no main()` }],
    };
  try {
    return { name, status: 'ok', rows: labelRows(name, summaryRows(await (main as () => unknown)())) };
  } catch (error) {
    console.error(error);
    return { name, status: 'failed', rows: [{ metric: 'failed', value: describe(error) }] };
  }
}

async function runCouncil(): Promise<BenchOutcome> {
  try {
    const result = await councilMain();
    return { name: 'council', status: 'ok', rows: result.summary };
  } catch (error) {
    console.error(error);
    return { name: 'council', status: 'failed', rows: [{ metric: 'failed', value: describe(error) }] };
  }
}

export async function runAll(): Promise<BenchOutcome[]> {
  const outcomes: BenchOutcome[] = [];
  console.log('== council ==');
  outcomes.push(await runCouncil());
  console.log('\n== pipeline ==');
  const pipeline = await runOptionalBench('pipeline', './pipeline.bench.ts');
  if (pipeline.status !== 'ok') console.log(pipeline.rows.map(r => `${r.metric}: ${r.value}`).join('\n'));
  outcomes.push(pipeline);
  console.log('\n== workflow ==');
  const workflow = await runOptionalBench('workflow', './workflow.bench.ts');
  if (workflow.status !== 'ok') console.log(workflow.rows.map(r => `${r.metric}: ${r.value}`).join('\n'));
  outcomes.push(workflow);

  console.log('\n== summary ==');
  console.log(
    formatTable(
      ['bench', 'metric', 'value'],
      outcomes.flatMap(o =>
        o.rows.map((r, i) => [
          i === 0 ? (o.status === 'ok' ? o.name : `${o.name} (${o.status})`) : '',
          r.metric,
          r.value,
        ]),
      ),
    ),
  );
  return outcomes;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAll().then(
    outcomes => {
      if (outcomes.some(o => o.status === 'failed')) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
