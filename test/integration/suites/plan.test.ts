import * as vscode from 'vscode';
import * as assert from '../assert';
import {
  councilExtension,
  fixture,
  newChat,
  readWorkspaceFile,
  sendChat,
  workspaceUri,
  writeWorkspaceFile,
} from '../harness';
import { playCouncil } from '../councilPlay';
import type { FixtureApi } from '../fixture/src/api';
import { playPipeline } from '../pipelinePlay';
import type { CouncilApi } from '../../../src/extension';
import { PIPELINE_BOARD_KEY, readBoard, skippedStages, type PipelineBoard } from '../../../src/core/plan/pipelineBoard';
import { HISTORY_KEY } from '../../../src/core/plan/history/blackboardHistory';
import type { HistoryItem } from '../../../src/core/plan/history/historyItem';
import { DEEP_WORK_AGENT_TYPES } from '../../../src/core/deepWork/runDeepWork';
import type { StoredWorkflowRun } from '../../../src/core/deepWork/storedWorkflowRun';
import { runSpent, type WorkflowRunState } from '../../../src/core/workflow/engine/workflowRunState';
import { loadWorkflows } from '../../../src/vscode/deepWork/workflowCatalog';
import {
  deepWorkFollowups,
  readDeepWorkMetadata,
  type DeepWorkResultMetadata,
} from '../../../src/vscode/deepWork/deepWorkResult';
import type { ApplyTicketChangesResult } from '../../../src/vscode/deepWork/applyTicketChanges';
import { planCompletedReport } from '../../../src/vscode/deepWork/planResponse';
import { workspaceSymbolicLinks } from '../../../src/vscode/deepWork/workspaceLinks';
import { refusalMessage, refusedWrites } from '../../../src/core/plan/writablePath';
import { councilFollowups } from '../../../src/vscode/chat/followups';
import { VsCodeWorkspaceReader } from '../../../src/vscode/workspace/vscodeWorkspaceReader';
function calls(api: FixtureApi, route: string): number {
  return api.requests().filter(r => r.tools.some(t => t.name === route)).length;
}

function meta(result: vscode.ChatResult): DeepWorkResultMetadata {
  const metadata = readDeepWorkMetadata(result);
  assert.ok(metadata, `a /plan result: ${JSON.stringify(result)}`);
  return metadata as DeepWorkResultMetadata;
}

/** The chat request a follow-up button sends. */
function buttonQuery(result: vscode.ChatResult, label: string): string {
  const button = deepWorkFollowups(result)?.find(f => f.label === label);
  assert.ok(button, `a "${label}" button; got ${JSON.stringify(deepWorkFollowups(result)?.map(f => f.label))}`);
  return `@council /${button?.command} ${button?.prompt}`;
}

/** A stored plan run: its state, the stages' records on its board, the stages it skipped, its status and request count. */
async function storedRun(runId: string | undefined): Promise<{
  readonly status: StoredWorkflowRun['status'];
  readonly requestsUsed: number;
  readonly state: WorkflowRunState;
  readonly board: PipelineBoard;
  readonly skipped: readonly string[];
}> {
  const extension = await councilExtension();
  const api = extension.exports as CouncilApi;
  const run = api.runs.load(runId ?? '');
  assert.ok(run, `run ${runId} is stored`);
  const stored = run as StoredWorkflowRun;
  const plan = (await loadWorkflows(extension.extensionUri, DEEP_WORK_AGENT_TYPES)).get('plan');
  assert.ok(plan, 'the plan workflow loads');
  return {
    status: stored.status,
    requestsUsed: runSpent(stored.state).requests,
    state: stored.state,
    board: readBoard(stored.state.blackboard),
    skipped: skippedStages(plan as NonNullable<typeof plan>, stored.state),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(workspaceUri(path));
    return true;
  } catch {
    return false;
  }
}

/** Runs a plan to completion through Continue buttons; returns the last result. */
async function completedRun(goal: string): Promise<vscode.ChatResult> {
  let result = await sendChat(`@council /plan ${goal}`);
  while (meta(result).status === 'paused') result = await sendChat(buttonQuery(result, 'Continue'));
  assert.equal(meta(result).status, 'completed');
  return result;
}

describe('/plan: the deep-work pipeline in chat', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    await newChat();
  });

  it('explains what to type when there is no goal and no council answer', async () => {
    const result = await sendChat('@council /plan');
    assert.deepEqual(meta(result), { plan: 1 });
    assert.equal((await fixture()).requests().length, 0, 'no model call');
  });

  it('runs discovery -> planning -> tickets, pausing at each checkpoint, and writes the report under .council/runs/<id>/', async () => {
    const api = await fixture();
    playPipeline(api);
    const first = await sendChat('@council /plan Add a subtract helper');
    const runId = meta(first).runId;
    assert.match(runId ?? '', /^wf-[0-9a-f-]{36}$/);
    assert.deepEqual(
      { status: meta(first).status, stage: meta(first).stage, prompts: deepWorkFollowups(first)?.map(f => f.prompt) },
      {
        status: 'paused',
        stage: 'discovery',
        // One grammar for /plan and /workflow: a checkpoint's option by its number.
        prompts: [1, 2, 3, 4].map(option => `decide ${runId} ${option}`),
      },
    );
    assert.deepEqual(
      deepWorkFollowups(first)?.map(f => f.label),
      ['Continue', 'Redo stage', 'Skip next stage', 'Abort'],
    );
    assert.equal(calls(api, 'planning_agent_result'), 0, 'planning waits for Continue');
    assert.equal((await storedRun(runId)).status, 'paused');
    assert.equal((await storedRun(runId)).requestsUsed, api.requests().length, 'the run counts what it spent');

    const second = await sendChat(buttonQuery(first, 'Continue'));
    assert.deepEqual(
      { id: meta(second).runId, status: meta(second).status, stage: meta(second).stage },
      { id: runId, status: 'paused', stage: 'planning' },
    );
    assert.equal(calls(api, 'discovery_collector_result'), 1, 'discovery is not redone on resume');

    const third = await sendChat(buttonQuery(second, 'Continue'));
    assert.equal(meta(third).status, 'completed');
    assert.deepEqual(deepWorkFollowups(third), []);
    assert.equal(calls(api, 'ticket_agent_result'), 2, 'one ticket agent per ticket');
    const run = await storedRun(runId);
    assert.equal(run.status, 'completed');
    assert.equal(run.requestsUsed, api.requests().length, 'the count survives each checkpoint pause');
    assert.deepEqual(Object.keys(run.board.stages), ['discovery', 'planning', 'tickets']);
    const history = (run.state.blackboard[HISTORY_KEY] ?? []) as readonly HistoryItem[];
    assert.deepEqual(
      [...new Set(history.map(item => item.agentType))].filter(type => type.endsWith('-agent')),
      ['discovery-agent', 'planning-agent', 'ticket-agent'],
      "the run's history is saved with the run, across its pauses",
    );
    for (const file of [
      'code-map.md',
      'recommendations.md',
      'tickets.md',
      'outcomes/T-1.md',
      'outcomes/T-2.md',
      'run.md',
    ]) {
      assert.ok(await exists(`.council/runs/${runId}/${file}`), `${file} is written`);
    }
    assert.equal(await exists('test/T-1.test.ts'), false, 'nothing is applied by the run');
  });

  it('Redo stage reruns the stage just completed; Skip next stage finishes the run there', async () => {
    const api = await fixture();
    playPipeline(api);
    const first = await sendChat('@council /plan Add a subtract helper');
    const redone = await sendChat(buttonQuery(first, 'Redo stage'));
    assert.deepEqual(
      { id: meta(redone).runId, status: meta(redone).status, stage: meta(redone).stage },
      { id: meta(first).runId, status: 'paused', stage: 'discovery' },
    );
    assert.equal(calls(api, 'discovery_collector_result'), 2, 'discovery ran twice');
    assert.equal(calls(api, 'planning_agent_result'), 0);
    const run = await storedRun(meta(first).runId);
    assert.deepEqual(
      Object.keys(run.state.phaseTallies).map(id => `${id}:${run.state.context.phases.iteration_counts[id] ?? 0}`),
      ['discovery:2', 'planning:0', 'tickets:0'],
    );

    const skipped = await sendChat(buttonQuery(redone, 'Skip next stage'));
    assert.equal(meta(skipped).status, 'completed');
    assert.equal(calls(api, 'planning_agent_result'), 0, 'planning skipped');
    assert.deepEqual((await storedRun(meta(first).runId)).skipped, ['planning', 'tickets']);
    const folder = `.council/runs/${meta(first).runId}`;
    assert.ok(await exists(`${folder}/code-map.md`));
    assert.equal(await exists(`${folder}/tickets.md`), false, 'no tickets without planning');
  });

  it('Abort keeps the run resumable; Resume goes on from the next stage', async () => {
    const api = await fixture();
    playPipeline(api);
    const first = await sendChat('@council /plan Add a subtract helper');
    const aborted = await sendChat(buttonQuery(first, 'Abort'));
    assert.equal(meta(aborted).status, 'aborted');
    assert.equal((await storedRun(meta(first).runId)).status, 'aborted');
    assert.equal(calls(api, 'planning_agent_result'), 0);
    const resumed = await sendChat(buttonQuery(aborted, 'Resume'));
    assert.deepEqual(
      { id: meta(resumed).runId, status: meta(resumed).status, stage: meta(resumed).stage },
      { id: meta(first).runId, status: 'paused', stage: 'planning' },
    );
    assert.equal(calls(api, 'discovery_collector_result'), 1);
  });

  it('a failed model call ends with Try again, which resumes at the failed stage', async () => {
    const api = await fixture();
    let failing = true;
    playPipeline(api, route =>
      route === 'planning_collector_result' && failing ? { fail: 'Blocked', message: 'Blocked by policy.' } : undefined,
    );
    const first = await sendChat('@council /plan Add a subtract helper');
    const failed = await sendChat(buttonQuery(first, 'Continue'));
    assert.equal(meta(failed).status, 'failed');
    assert.match(
      failed.errorDetails?.message ?? '',
      /content policy.*Progress up to Discovery is saved\./,
      'an error box that says what happened and what is kept',
    );
    assert.equal(meta(failed).stage, 'discovery', 'the state stays at the last completed stage');
    failing = false;
    const retried = await sendChat(buttonQuery(failed, 'Try again'));
    assert.deepEqual(
      { status: meta(retried).status, stage: meta(retried).stage },
      { status: 'paused', stage: 'planning' },
    );
  });

  it('Stop leaves the run resumable at its last completed stage', async () => {
    const api = await fixture();
    let hang = true;
    let reached = (): void => {};
    const hung = new Promise<void>(resolve => (reached = resolve));
    playPipeline(api, route => {
      if (route !== 'planning_collector_result' || !hang) return undefined;
      reached();
      return { waitForCancellation: true };
    });
    const first = await sendChat('@council /plan Add a subtract helper');
    const runId = meta(first).runId;
    const pending = sendChat(buttonQuery(first, 'Continue')).catch(() => undefined);
    await hung;
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await pending;
    const run = await storedRun(runId);
    assert.equal(run.status, 'cancelled');
    assert.equal(run.state.nextPhase, 'planning', 'discovery stays done');
    hang = false;
    const resumed = await sendChat(`@council /plan resume ${runId}`);
    assert.deepEqual(
      { id: meta(resumed).runId, status: meta(resumed).status, stage: meta(resumed).stage },
      { id: runId, status: 'paused', stage: 'planning' },
    );
    assert.equal(calls(api, 'discovery_collector_result'), 1);
  });

  it('"Plan this" after a council answer plans its final answer with the assumptions as constraints', async () => {
    const api = await fixture();
    playCouncil(api, { questions: 0, convergeAtCycle: 1 });
    const answer = await sendChat('@council /debate Should the app format its results?');
    assert.ok(
      councilFollowups(answer).some(f => f.label === 'Plan this' && f.command === 'plan' && f.prompt === ''),
      'a Plan this button',
    );
    playPipeline(api);
    const planned = await sendChat('@council /plan');
    const run = await storedRun(meta(planned).runId);
    assert.match(run.board.goal, /Go with option B/);
  });

  it("applies a ticket's changes only when confirmed", async () => {
    const api = await fixture();
    playPipeline(api);
    const done = await completedRun('Add a subtract helper');
    const runId = meta(done).runId;
    const declined = await vscode.commands.executeCommand<ApplyTicketChangesResult>('council.applyTicketChanges', {
      runId,
      ticketId: 'T-2',
      confirmed: false,
    });
    assert.equal(declined.applied, false);
    assert.deepEqual(declined.files, ['modify src/util/math.ts', 'create test/T-2.test.ts']);
    assert.equal(await exists('test/T-2.test.ts'), false, 'an unconfirmed change changes nothing');
    const math = await vscode.workspace.openTextDocument(workspaceUri('src/util/math.ts'));
    assert.equal(math.lineAt(1).text, '  return a + b;');

    const applied = await vscode.commands.executeCommand<ApplyTicketChangesResult>('council.applyTicketChanges', {
      runId,
      ticketId: 'T-1',
      confirmed: true,
    });
    assert.equal(applied.applied, true, applied.message);
    assert.ok(await exists('test/T-1.test.ts'), 'the proposed file is created');
    assert.equal(math.lineAt(1).text, '  return a + b; // checked');
    assert.equal(math.lineAt(0).text, 'export function add(a: number, b: number): number {', 'other lines stay');
  });

  it('refuses a ticket that modifies .git/config before any modal, writes nothing, and the report shows why instead of Apply', async () => {
    const api = await fixture();
    playPipeline(api);
    const done = await completedRun('Add a subtract helper');
    const runId = meta(done).runId ?? '';
    // The stored run as a model could have left it: T-2 modifies Git's config besides the helper.
    const council = (await councilExtension()).exports as CouncilApi;
    const stored = council.runs.load(runId);
    assert.ok(stored, 'the run is stored');
    const { state } = stored as StoredWorkflowRun;
    const board = readBoard(state.blackboard);
    const hook = {
      kind: 'modify',
      path: '.git/config',
      edit: { mode: 'replace_ranges', replacements: [{ startLine: 1, endLine: 1, newText: '[core] hooksPath = x' }] },
      rationale: 'Install the hooks.',
    } as const;
    const results = board.stages.tickets?.agentResults.map(result =>
      result.ticketId === 'T-2' ? { ...result, proposedChanges: [hook, ...result.proposedChanges] } : result,
    );
    assert.ok(results && board.stages.tickets, 'the run has ticket proposals');
    const tickets = { ...board.stages.tickets, agentResults: results };
    const poisoned: WorkflowRunState = {
      ...state,
      blackboard: { ...state.blackboard, [PIPELINE_BOARD_KEY]: { ...board, stages: { ...board.stages, tickets } } },
    };
    await council.runs.save(poisoned, 'completed');
    await writeWorkspaceFile('.git/config', '[core]\n');
    // The workspace is shared by the suite: an earlier test may have applied T-1.
    const math = await readWorkspaceFile('src/util/math.ts');
    try {
      // No `confirmed`: a modal would fail the test (the test workbench refuses to show dialogs).
      const refused = await vscode.commands.executeCommand<ApplyTicketChangesResult>('council.applyTicketChanges', {
        runId,
        ticketId: 'T-2',
      });
      assert.equal(refused.applied, false);
      assert.equal(
        refused.message,
        "Nothing applied: the proposal for T-2 would modify .git/config, and Council never writes Git's own state (.git/). Apply the other changes by hand, or run /plan again.",
      );
      assert.equal(await readWorkspaceFile('.git/config'), '[core]\n', '.git/config is left as it was');
      assert.equal(await exists('test/T-2.test.ts'), false, 'all or nothing: the rest of T-2 is not applied');
      assert.equal(await readWorkspaceFile('src/util/math.ts'), math, 'nor its change to the helper');

      // The completed run's report: why for T-2, the Apply link still for T-1.
      const plan = (await loadWorkflows((await councilExtension()).extensionUri, DEEP_WORK_AGENT_TYPES)).get('plan');
      assert.ok(plan, 'the plan workflow loads');
      const text = planCompletedReport(plan as NonNullable<typeof plan>, poisoned, [])
        .map(part => (typeof part === 'string' ? part : part.value))
        .join('');
      assert.match(text, /\*\*Council will not apply this proposal:\*\* it would modify \.git\/config/);
      assert.doesNotMatch(text, /Apply changes for T-2/);
      assert.match(text, /Apply changes for T-1/);
    } finally {
      await vscode.workspace.fs.delete(workspaceUri('.git'), { recursive: true });
    }
  });

  it('Apply’s symbolic-link check reads workspace.fs.stat’s SymbolicLink bit: it refuses a path through docs/notes', async () => {
    // The web test host serves the workspace without links (its server stats through them), so a file system of the
    // test's own, registered in this VS Code, holds the link a cloned repository could: docs/notes -> ../.git.
    const linked = new Set(['docs/notes']);
    const folders = new Set(['docs', 'docs/notes', 'src']);
    const asked: string[] = [];
    const provider: vscode.FileSystemProvider = {
      onDidChangeFile: new vscode.EventEmitter<vscode.FileChangeEvent[]>().event,
      watch: () => new vscode.Disposable(() => undefined),
      stat: uri => {
        const path = uri.path.replace(/^\/root\/?/, '');
        asked.push(path);
        if (path === 'src/app.ts') return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: 0 };
        if (!folders.has(path)) throw vscode.FileSystemError.FileNotFound(uri);
        const link = linked.has(path) ? vscode.FileType.SymbolicLink : 0;
        return { type: vscode.FileType.Directory | link, ctime: 0, mtime: 0, size: 0 };
      },
      readDirectory: () => [],
      createDirectory: () => undefined,
      readFile: uri => {
        throw vscode.FileSystemError.FileNotFound(uri);
      },
      writeFile: () => undefined,
      delete: () => undefined,
      rename: () => undefined,
    };
    const registration = vscode.workspace.registerFileSystemProvider('council-applylinks', provider);
    try {
      const root = vscode.Uri.parse('council-applylinks:/root');
      const isSymbolicLink = workspaceSymbolicLinks(path => vscode.Uri.joinPath(root, path));
      const refused = await refusedWrites(
        [
          { kind: 'modify', path: 'src/app.ts' },
          { kind: 'create', path: 'docs/notes/hooks/pre-commit' },
          { kind: 'create', path: 'docs/new/page.md' },
        ],
        isSymbolicLink,
      );
      assert.deepEqual(refused, [
        { kind: 'create', path: 'docs/notes/hooks/pre-commit', reason: 'symbolic-link', link: 'docs/notes' },
      ]);
      assert.equal(
        refusalMessage('T-2', refused, '/plan'),
        'Nothing applied: the proposal for T-2 would create docs/notes/hooks/pre-commit (docs/notes is a symbolic link), and Council never writes through a symbolic link (it may lead anywhere, .git/ included). Apply the other changes by hand, or run /plan again.',
      );
      assert.ok(asked.includes('docs/new'), `a missing folder is asked and is no link: ${asked.join(', ')}`);
    } finally {
      registration.dispose();
    }
    // The real workspace's folders and files are no links, and a missing path is none either.
    const workspace = workspaceSymbolicLinks();
    for (const path of ['src', 'src/util/math.ts', 'no/such/file.ts']) assert.equal(await workspace(path), false, path);
  });

  it('"Council: Plan a Task" opens chat with @council /plan <goal>', async () => {
    playPipeline(await fixture());
    const result = await vscode.commands.executeCommand<vscode.ChatResult | undefined>('council.planTask', {
      goal: 'Add a subtract helper',
    });
    assert.ok(result, 'the chat request ran');
    assert.deepEqual(
      { status: meta(result as vscode.ChatResult).status, stage: meta(result as vscode.ChatResult).stage },
      { status: 'paused', stage: 'discovery' },
    );
  });
});

describe('/plan adapters over the real workspace and storage', () => {
  it('the reader lists visible files, honours search.exclude, skips node_modules and run reports, and never returns binary text', async () => {
    const write = (path: string, text: string) =>
      vscode.workspace.fs.writeFile(workspaceUri(path), new TextEncoder().encode(text));
    await write('node_modules/pkg/index.js', 'module.exports = 1;');
    await write('generated/out.ts', 'export const x = 1;');
    await write('.council/runs/wf-00000000-0000-4000-8000-000000000000/run.md', '# old run');
    await write('data/blob.txt', 'abc\u0000def');
    const config = vscode.workspace.getConfiguration('search');
    const previous = config.inspect('exclude')?.globalValue;
    await config.update('exclude', { '**/generated': true }, vscode.ConfigurationTarget.Global);
    try {
      const reader = new VsCodeWorkspaceReader();
      const paths = (await reader.listFiles(undefined, 1000)).map(f => f.path);
      for (const visible of ['src/app.ts', 'src/util/math.ts', 'lib/format.ts', 'README.md'])
        assert.ok(paths.includes(visible), `${visible} listed: ${paths.join(', ')}`);
      for (const hidden of ['node_modules/pkg/index.js', 'generated/out.ts'])
        assert.ok(!paths.includes(hidden), `${hidden} not listed`);
      assert.ok(!paths.some(p => p.startsWith('.council/runs/')), 'earlier run reports are not listed');
      assert.deepEqual(
        (await reader.listFiles('src/**/*.ts', 10)).map(f => f.path),
        ['src/app.ts', 'src/util/math.ts'],
      );
      const range = await reader.readRange('src/app.ts', 3, 3);
      assert.deepEqual({ text: range?.text, total: range?.totalLines }, { text: '  return add(1, 2);', total: 5 });
      assert.equal((await reader.readRange('data/blob.txt', 1, 5))?.text, '(binary file: not read)');
      assert.equal(await reader.readRange('../outside.ts', 1, 5), undefined, 'no path leaves the workspace');
      assert.deepEqual(
        (await reader.searchText('ADD(', 5)).map(m => `${m.path}:${m.line}`),
        ['src/app.ts:3', 'src/util/math.ts:1'],
      );
    } finally {
      await config.update('exclude', previous, vscode.ConfigurationTarget.Global);
      for (const path of ['node_modules', 'generated', 'data'])
        await vscode.workspace.fs.delete(workspaceUri(path), { recursive: true });
    }
  });
});
