import * as vscode from 'vscode';
import * as assert from '../assert';
import { configure, councilExtension, fixture, newChat, sendChat } from '../harness';
import { playSchemaFollowing, type SchemaFollowingOptions, type SchemaFollowingPlay } from '../schemaFollowingPlay';
import type { CouncilApi } from '../../../src/extension';
import {
  councilMetadata,
  readCouncilMetadata,
  type CouncilResultMetadata,
} from '../../../src/vscode/chat/councilResult';
import { deepWorkFollowups, readDeepWorkMetadata } from '../../../src/vscode/deepWork/deepWorkResult';
import { SessionLog } from '../../../src/core/council/sessionLog';

// These tests drive Council with a model that knows only what each request tells it (the JSON Schema sent),
// never Council's own rules: what a new user with a real model meets.

function meta(result: vscode.ChatResult): CouncilResultMetadata {
  const metadata = readCouncilMetadata(result);
  assert.ok(metadata, `a council result: ${JSON.stringify(result)}`);
  return metadata as CouncilResultMetadata;
}

async function session(result: vscode.ChatResult): Promise<SessionLog> {
  const id = meta(result).sessionId;
  const saved = ((await councilExtension()).exports as CouncilApi).store.load(id ?? '');
  assert.ok(saved?.ok, 'the session is in workspace storage');
  return SessionLog.restore(saved?.ok ? saved.stored : undefined);
}

/** Every turn ends without an error box (a schema-valid reply is never a failure). */
function clean(result: vscode.ChatResult): vscode.ChatResult {
  assert.equal(result.errorDetails?.message, undefined, 'no error');
  return result;
}

/** Answers open questions with the recommended answer until the session leaves clarifying. */
async function finish(result: vscode.ChatResult): Promise<vscode.ChatResult> {
  let current = clean(result);
  for (let turn = 0; turn < 20 && meta(current).state === 'clarifying'; turn++) {
    current = clean(
      await sendChat(
        meta(current).next?.some(step => step.kind === 'accept') ? '@council /accept' : '@council /skipall',
      ),
    );
  }
  return current;
}

async function assertCompleted(result: vscode.ChatResult): Promise<SessionLog> {
  assert.equal(meta(result).state, 'completed');
  const log = await session(result);
  assert.ok((log.snapshot.context.finalAnswer ?? '').trim().length > 0, 'a final answer');
  return log;
}

/** Sends `query`, presses Stop once the hung request arrives, and returns the stopped turn's result. */
async function stopDuring(play: SchemaFollowingPlay, query: string): Promise<vscode.ChatResult | undefined> {
  const pending = sendChat(query).catch(() => undefined);
  await play.hung;
  await vscode.commands.executeCommand('workbench.action.chat.cancel');
  return pending;
}

/** A generated clarification that asks at least one question (still an instance of the schema sent). */
const asksQuestions: SchemaFollowingOptions['choose'] = (tool, generate) => {
  if (tool !== 'propose_clarifying_questions' && tool !== 'open_session') return generate();
  for (;;) {
    const value = generate() as { needsClarification?: boolean; questions?: unknown[] };
    if (value.needsClarification === true && (value.questions?.length ?? 0) > 0) return value;
  }
};

/** Moderator verdicts that never converge, so the debate runs to its cycle limit. */
const neverConverges: SchemaFollowingOptions['choose'] = (tool, generate) => {
  const value = generate();
  return tool === 'moderate_cycle' ? { ...(value as object), converged: false } : value;
};

/**
 * Collectors that judge each stage complete, and agents that do not ask for their context to be rebuilt: a random
 * decision may rerun, route back or proceed, and a random `contextRequest` reaches the context manager, whose random
 * answer may be to ask the user (the run then rightly waits); those paths are covered by the unit tests.
 */
const collectorsAdvance: SchemaFollowingOptions['choose'] = (tool, generate) => {
  const value = generate() as Record<string, unknown>;
  if (tool.endsWith('_collector_result'))
    return { ...value, decision: { kind: 'advance', rationale: 'The stage is complete.' } };
  const { contextRequest: _asked, ...rest } = value;
  return rest;
};

describe('a model that follows only the published schemas', function () {
  this.timeout(30_000);

  beforeEach(async () => {
    await newChat();
  });

  for (const seed of [1, 2, 3]) {
    it(`a full session ends in a final answer (seed ${seed})`, async () => {
      playSchemaFollowing(await fixture(), { seed });
      const final = await finish(await sendChat('@council How should we store user sessions?'));
      const log = await assertCompleted(final);
      const council = new Set(log.snapshot.context.participants.map(p => p.name));
      const landed =
        ((log.snapshot.context.finalAnswer ?? '').split('Where each persona landed')[1] ?? '').split('###')[0] ?? '';
      for (const name of landed.matchAll(/^- \*\*(.+?):\*\*/gm)) {
        assert.ok(council.has(name[1] ?? ''), `"${name[1]}" was on the council`);
      }
    });
  }

  it('/debate ends in a final answer', async () => {
    playSchemaFollowing(await fixture(), { seed: 11 });
    await assertCompleted(clean(await sendChat('@council /debate Should our mobile API use GraphQL or REST?')));
  });

  it('typing "skip" skips the open question: its recommended answer becomes an assumption', async () => {
    playSchemaFollowing(await fixture(), { seed: 21, choose: asksQuestions });
    const first = clean(await sendChat('@council Plan our database migration'));
    assert.equal(meta(first).state, 'clarifying');
    const asked = (await session(first)).snapshot.context.questions[0];
    const afterSkip = clean(await sendChat('@council skip'));
    const log = await session(afterSkip);
    assert.ok(
      !log.snapshot.context.answers.some(a => a.answer.trim().toLowerCase() === 'skip'),
      'no literal "skip" answer',
    );
    assert.ok(
      log.snapshot.context.assumptionLog.some(a => a.relatedQuestionId === asked?.questionId),
      'the skipped question is logged as an assumption',
    );
  });

  it('/plan runs to its report', async () => {
    playSchemaFollowing(await fixture(), { seed: 31, choose: collectorsAdvance });
    let result = await sendChat('@council /plan Add a subtract helper');
    for (let turn = 0; turn < 6 && readDeepWorkMetadata(result)?.status === 'paused'; turn++) {
      const button = deepWorkFollowups(result)?.find(f => f.label === 'Continue');
      result = await sendChat(`@council /${button?.command} ${button?.prompt}`);
    }
    assert.equal(result.errorDetails?.message, undefined, `no error, got: ${result.errorDetails?.message}`);
    const metadata = readDeepWorkMetadata(result);
    assert.equal(metadata?.status, 'completed', JSON.stringify(metadata));
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'a workspace folder');
    const report = vscode.Uri.joinPath(folder as vscode.Uri, `.council/runs/${metadata?.runId}/run.md`);
    assert.ok((await vscode.workspace.fs.stat(report)).size > 0, 'the report is written');
  });

  describe('Stop, then Try again, finishes without repeating completed work', () => {
    const councilPhases: readonly {
      readonly phase: string;
      readonly tool: string;
      readonly nth?: number;
      readonly query: string;
      readonly done: readonly string[];
      readonly protocol?: 'thorough';
    }[] = [
      {
        phase: 'the opening (council and questions in one request)',
        tool: 'open_session',
        query: '@council How should we store user sessions?',
        done: [],
      },
      {
        phase: 'persona selection (thorough)',
        tool: 'select_personas',
        query: '@council How should we store user sessions?',
        done: [],
        protocol: 'thorough',
      },
      {
        phase: 'clarification (thorough)',
        tool: 'propose_clarifying_questions',
        query: '@council How should we store user sessions?',
        done: ['select_personas'],
        protocol: 'thorough',
      },
      {
        phase: 'the first debate cycle',
        tool: 'contribute_to_debate',
        query: '@council /debate Tabs or spaces?',
        done: ['select_personas'],
      },
      {
        phase: 'the streamed final answer',
        tool: 'prose',
        query: '@council /debate Tabs or spaces?',
        done: ['select_personas', 'contribute_to_debate'],
      },
      {
        phase: 'the moderator of cycle 1 (thorough)',
        tool: 'moderate_cycle',
        query: '@council /debate Tabs or spaces?',
        done: ['select_personas'],
        protocol: 'thorough',
      },
      {
        phase: 'the second debate cycle (thorough)',
        tool: 'moderate_cycle',
        nth: 2,
        query: '@council /debate Tabs or spaces?',
        done: ['select_personas'],
        protocol: 'thorough',
      },
    ];
    for (const { phase, tool, nth, query, done, protocol } of councilPhases) {
      it(`during ${phase}`, async () => {
        const restore = await configure({
          'debate.maxCycles': 2,
          ...(protocol ? { 'debate.protocol': protocol } : {}),
        });
        try {
          const play = playSchemaFollowing(await fixture(), { seed: 41, hang: { tool, nth }, choose: neverConverges });
          const stopped = await stopDuring(play, query);
          const before = new Map(done.map(t => [t, play.calls(t)] as const));
          // VS Code hands the command a bare result for a stopped request (the page test clicks the real Try again
          // button); what matters here is that the stored session is resumable and Try again continues that session.
          assert.deepEqual(stopped, {});
          const saved = ((await councilExtension()).exports as CouncilApi).store.latest();
          assert.ok(saved?.ok, 'the stopped session is stored');
          const stoppedLog = SessionLog.restore(saved?.ok ? saved.stored : undefined);
          assert.notEqual(stoppedLog.state, 'completed');
          assert.ok(
            councilMetadata(stoppedLog, true).next?.some(step => step.kind === 'retry'),
            'Try again is offered for it',
          );
          const final = await finish(await sendChat('@council /retry'));
          await assertCompleted(final);
          assert.equal(meta(final).sessionId, stoppedLog.sessionId, 'Try again continued the stopped session');
          for (const [t, count] of before) assert.equal(play.calls(t), count, `${t} is not asked again`);
        } finally {
          await restore();
        }
      });
    }

    for (const stage of ['discovery_report', 'planning_agent_result', 'ticket_agent_result']) {
      it(`during /plan's ${stage.replace(/_.*/, '')} stage`, async () => {
        const play = playSchemaFollowing(await fixture(), {
          seed: 51,
          hang: { tool: stage },
          choose: collectorsAdvance,
        });
        // Run (and Continue) until the stage that hangs, pressing Stop there.
        let result = await stopOrContinue(play, '@council /plan Add a subtract helper');
        for (let turn = 0; turn < 4 && result && readDeepWorkMetadata(result)?.status === 'paused'; turn++) {
          const next = deepWorkFollowups(result)?.find(f => f.label === 'Continue');
          result = await stopOrContinue(play, `@council /${next?.command} ${next?.prompt}`);
        }
        const stored = ((await councilExtension()).exports as CouncilApi).runs.list()[0];
        assert.equal(stored?.status, 'cancelled', 'the newest run was stopped');
        const collectors = play.calls('discovery_collector_result');
        let resumed = await sendChat(`@council /plan resume ${stored?.state.runId}`);
        for (let turn = 0; turn < 4 && readDeepWorkMetadata(resumed)?.status === 'paused'; turn++) {
          const next = deepWorkFollowups(resumed)?.find(f => f.label === 'Continue');
          resumed = await sendChat(`@council /${next?.command} ${next?.prompt}`);
        }
        assert.equal(readDeepWorkMetadata(resumed)?.status, 'completed');
        if (stage !== 'discovery_report')
          assert.equal(play.calls('discovery_collector_result'), collectors, 'discovery is not redone');
      });
    }
  });
});

/** Sends `query`; if the hung request arrives meanwhile, presses Stop. */
async function stopOrContinue(play: SchemaFollowingPlay, query: string): Promise<vscode.ChatResult | undefined> {
  const pending = sendChat(query).catch(() => undefined);
  const outcome = await Promise.race([pending.then(() => 'done' as const), play.hung.then(() => 'hung' as const)]);
  if (outcome === 'hung') await vscode.commands.executeCommand('workbench.action.chat.cancel');
  return pending;
}
