import assert from 'node:assert/strict';
import {
  CancelledError,
  LanguageModelFailure,
  type ChatMessage,
  type MessagePart,
} from '../../../../../src/core/llm/languageModel';
import { messageText } from '../../../../../src/core/llm/usage';
import { detectDegenerateLoop, type DegenerateLoop } from '../../../../../src/core/plan/contextManager/degenerateLoop';
import type { ContextManagerRouting } from '../../../../../src/core/plan/contextManager/routing';
import {
  loopRequest,
  type ContextManagerRequest,
} from '../../../../../src/core/plan/contextManager/contextManagerRequest';
import {
  runContextManager,
  type ContextManagerRun,
} from '../../../../../src/core/plan/contextManager/runContextManager';
import type { HistorySnapshot } from '../../../../../src/core/plan/history/historyItem';
import {
  cancellationSource,
  replyByTool,
  ScriptedModel,
  toolCallReply,
  valueReply,
  type Responder,
  type Route,
  type ScriptedModelOptions,
  type ScriptedReply,
} from '../../../../support/scriptedModel';
import { historyOf, invocation } from '../history/fixtures';
import { HISTORY_NOTES_KEY } from '../../../../../src/core/plan/history/blackboardHistory';

const AGENTS = ['discovery-orchestrator', 'discovery-agent', 'planning-orchestrator'];

const context = {
  goal: 'Map the lexer as well as the parser.',
  summary: 'Three attempts mapped src/parser.ts only.',
  instructions: 'Assign the lexer to a separate discovery agent.',
  relevantItemIds: ['item-1'],
  excludedItemIds: ['item-2', 'item-3'],
};

const routeTo = (targetAgentType: string, reconstructed = context): ContextManagerRouting => ({
  reason: 'The agent kept mapping the same files; the lexer was never in scope.',
  next: { kind: 'route', targetAgentType, context: reconstructed },
});

const route = routeTo('discovery-orchestrator');

const askUser: ContextManagerRouting = {
  reason: 'The history does not say which module the user meant.',
  next: { kind: 'ask_user', question: 'Should discovery cover the lexer too, or only the parser?' },
};

/** A loop's case asked as spec 001's ContextManagerRequest (its id, the run's goal). */
const asked = (loop: DegenerateLoop, destinations: readonly string[]): ContextManagerRequest => ({
  ...loopRequest(loop, destinations),
  contextId: 'wf-00000000-0000-4000-8000-000000000000/context-manager/9/2026-01-01T00:00:00Z',
  goal: 'Map the parser.',
});

async function stuckRun(): Promise<{ readonly history: HistorySnapshot; readonly loop: DegenerateLoop }> {
  const { snapshot } = historyOf([invocation(1), invocation(2), invocation(3)]);
  const loop = detectDegenerateLoop(snapshot.items, 2);
  assert.ok(loop);
  return { history: snapshot, loop };
}

/** Scripted investigation turns (by call index) followed by scripted decisions. */
function model(
  investigation: readonly ScriptedReply[],
  decision: Route,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const turns: Responder = (_request, call) => investigation[call] ?? 'Done investigating.';
  return new ScriptedModel(replyByTool({ route_context: decision }, turns), options);
}

async function run(scripted: ScriptedModel, overrides: Partial<ContextManagerRun> = {}) {
  const { history, loop } = await stuckRun();
  return runContextManager({
    model: scripted,
    request: asked(loop, AGENTS),
    history,
    token: cancellationSource().token,
    ...overrides,
  });
}

const parts = (message: ChatMessage | undefined): readonly MessagePart[] =>
  message && typeof message.content !== 'string' ? message.content : [];

describe('runContextManager', () => {
  it('investigates with the read-only history tools, then routes to exactly one agent', async () => {
    const scripted = model(
      [toolCallReply('history_search', { query: 'parser' }), toolCallReply('history_item', { itemId: 'item-1' })],
      valueReply(route),
    );
    const result = await run(scripted);
    assert.deepEqual(result, route);
    assert.equal(scripted.callCount, 4, 'three investigation turns (two with a tool call) and one decision');

    const [first, second, , decision] = scripted.requests;
    assert.deepEqual(
      first?.tools.map(tool => tool.name),
      ['history_trace', 'history_list', 'history_search', 'history_item'],
    );
    assert.equal(first?.toolMode, 'auto');
    assert.match(
      messageText(first!.messages[0]!),
      /discovery-agent-1 \(type discovery-agent\) is stuck: it ran discover\(DiscoveryAgentRequest\) 3 times/,
    );
    const toolResult = parts(second?.messages.at(-1)).find(part => part.kind === 'toolResult');
    assert.ok(toolResult?.kind === 'toolResult');
    assert.equal(toolResult.callId, 'call-0');
    assert.match(toolResult.content, /"hits":\[\{"item":\{"itemId":"item-1"/);
    assert.deepEqual(
      decision?.tools.map(tool => tool.name),
      ['route_context'],
    );
    assert.equal(decision?.toolMode, 'required');
    const transcript = decision!.messages.map(messageText).join('\n');
    assert.match(transcript, /history_item\(\{"itemId":"item-1"\}\) returned: \{"found":true/);
    assert.ok(
      decision!.messages.every(message => typeof message.content === 'string'),
      'the decision request carries no tool parts',
    );
  });

  it("tells the run's goal and the stage's feedback (additionalContext, fenced as data) in its opening", async () => {
    const scripted = model([], valueReply(route), { supportsToolCalling: false });
    const { history, loop } = await stuckRun();
    await runContextManager({
      model: scripted,
      request: { ...asked(loop, AGENTS), additionalContext: 'The user: cover the lexer too.' },
      history,
      token: cancellationSource().token,
    });
    const opening = messageText(scripted.requests[0]!.messages[0]!);
    assert.match(opening, /The run's goal: Map the parser\./);
    assert.match(opening, /<untrusted-data source="feedback">\s*The user: cover the lexer too\.\s*<\/untrusted-data>/);
    assert.match(
      opening,
      /<untrusted-data source="history">\s*- item-1 [^]*- item-3 [^]*<\/untrusted-data>/,
      'the evidence is data',
    );
  });

  it('with addNote, offers history_add_note: a note on an item is kept in the run history and read back with the item (spec 001 HistoryNote)', async () => {
    const { history, blackboard, snapshot } = historyOf([invocation(1), invocation(2), invocation(3)]);
    const loop = detectDegenerateLoop(snapshot.items, 2);
    assert.ok(loop);
    const scripted = model(
      [
        toolCallReply('history_add_note', { itemIds: ['item-2'], content: 'Same as item-1.', tags: ['exclusion'] }),
        toolCallReply('history_add_note', { itemIds: ['item-9'], content: 'x', tags: [] }),
        toolCallReply('history_item', { itemId: 'item-2' }),
      ],
      valueReply(route),
    );
    await runContextManager({
      model: scripted,
      request: asked(loop, AGENTS),
      history: snapshot,
      token: cancellationSource().token,
      addNote: note => history.addNote({ ...note, authorAgent: 'context-manager' }, '2026-01-19T10:05:00.000Z'),
    });
    assert.ok(scripted.requests[0]?.tools.some(tool => tool.name === 'history_add_note'));
    const notes = history.snapshot().notes ?? [];
    assert.deepEqual(
      notes.map(note => [note.itemIds, note.content, note.tags, note.authorAgent]),
      [[['item-2'], 'Same as item-1.', ['exclusion'], 'context-manager']],
      'one note kept; the one on an unknown item was refused',
    );
    assert.deepEqual(blackboard.get(HISTORY_NOTES_KEY), notes, "kept on the run's blackboard, saved with the run");
    const transcript = scripted.lastRequest.messages.map(messageText).join('\n');
    assert.match(transcript, /No history item with id item-9; nothing was added/);
    assert.match(transcript, /history_item\(\{"itemId":"item-2"\}\) returned: \{"found":true.*"notes":\[\{"noteId"/);
  });

  it('sends a routing to an unknown agent back for repair and returns the repaired one', async () => {
    const unknownTarget = routeTo('review-agent');
    const scripted = model([], [valueReply(unknownTarget), valueReply(route)]);
    const result = await run(scripted);
    assert.deepEqual(result, route);
    const repair = scripted.lastRequest.messages.map(messageText).join('\n');
    assert.match(repair, /next\.targetAgentType/);
    assert.match(repair, /discovery-orchestrator/);
  });

  it('drops cited history items that do not exist before validation, and reports the change', async () => {
    const inventedItem = routeTo('discovery-orchestrator', {
      ...context,
      relevantItemIds: ['item-42', 'item-1', 'item-1'],
    });
    const scripted = model([], [valueReply(inventedItem)]);
    const changes: string[] = [];
    const result = await run(scripted, { onNormalized: noted => changes.push(...noted) });
    assert.deepEqual(result, route);
    assert.doesNotMatch(
      scripted.lastRequest.messages.map(messageText).join('\n'),
      /did not match the required format/,
      'no repair round',
    );
    assert.deepEqual(changes, ['dropped duplicate history item "item-1"', 'dropped unknown history item "item-42"']);
  });

  it('lists the existing history items and agent types in the JSON Schema it sends', async () => {
    const scripted = model([], [valueReply(route)]);
    await run(scripted);
    const schema = JSON.stringify(scripted.lastRequest.tools[0]?.inputSchema);
    assert.match(
      schema,
      /"relevantItemIds":\{"type":"array","items":\{"type":"string","enum":\["item-1","item-2","item-3"/,
    );
    assert.match(schema, /"History items this context was built from\. Each item at most once\."/);
  });

  it('fails with a malformedReply when the model keeps routing to an unknown agent', async () => {
    const scripted = model([], valueReply(routeTo('review-agent')));
    await assert.rejects(
      run(scripted),
      (error: unknown) => error instanceof LanguageModelFailure && error.kind === 'malformedReply',
    );
  });

  it('rejects a routing with an empty reconstructed context', async () => {
    const empty = routeTo('discovery-orchestrator', { ...context, summary: '  ' });
    const scripted = model([], [valueReply(empty), valueReply(route)]);
    const result = await run(scripted);
    assert.deepEqual(result, route);
    assert.match(scripted.lastRequest.messages.map(messageText).join('\n'), /next\.context\.summary/);
  });

  it('asks the user when that is the decision', async () => {
    const result = await run(model([], valueReply(askUser)));
    assert.deepEqual(result, askUser);
  });

  it('trims the question it asks (it is quoted in chat) and the reason', async () => {
    const padded = {
      reason: `\n ${askUser.reason} \n`,
      next: { ...askUser.next, question: `\n\n  ${askUser.next.kind === 'ask_user' ? askUser.next.question : ''}\n` },
    };
    const result = await run(model([], valueReply(padded)));
    assert.deepEqual(result, askUser);
  });

  it('bounds the investigation to maxRounds and says the budget is used up', async () => {
    const forever = Array.from({ length: 20 }, () => toolCallReply('history_list', {}));
    const scripted = model(forever, valueReply(route));
    await run(scripted, { limits: { maxRounds: 3 } });
    assert.equal(scripted.callCount, 4, 'three investigation turns and one decision');
    assert.match(messageText(scripted.lastRequest.messages.at(-2)!), /The tool budget is used up/);
    assert.match(messageText(scripted.lastRequest.messages.at(-1)!), /Answer only by calling the `route_context` tool/);
  });

  it('runs at most maxCallsPerRound calls per turn and answers bad calls without failing', async () => {
    const burst: ScriptedReply = {
      kind: 'parts',
      parts: [
        { kind: 'toolCall', callId: 'a', name: 'history_delete', input: {} },
        { kind: 'toolCall', callId: 'b', name: 'history_list', input: { limit: 0 } },
        { kind: 'toolCall', callId: 'c', name: 'history_list', input: {} },
      ],
    };
    const scripted = model([burst], valueReply(route));
    await run(scripted, { limits: { maxCallsPerRound: 2 } });
    const results = parts(scripted.requests[1]?.messages.at(-1)).flatMap(part =>
      part.kind === 'toolResult' ? [[part.callId, part.content]] : [],
    );
    assert.equal(results.length, 3, 'every call gets a result');
    assert.match(
      results[0]![1]!,
      /Unknown tool "history_delete"\. Available: history_trace, history_list, history_search, history_item/,
    );
    assert.match(results[1]![1]!, /Invalid input for history_list/);
    assert.match(results[2]![1]!, /Not run: at most 2 tool calls per turn/);
  });

  it('clips long tool results', async () => {
    const scripted = model([toolCallReply('history_list', {})], valueReply(route));
    await run(scripted, { limits: { maxResultChars: 100 } });
    const result = parts(scripted.requests[1]?.messages.at(-1))[0];
    assert.ok(result?.kind === 'toolResult');
    assert.ok(result.content.length < 200);
    assert.match(result.content, /truncated: narrow the query or page/);
  });

  it('works with a model without tool calling by showing recent history inline', async () => {
    const scripted = model([], valueReply(route), { supportsToolCalling: false });
    const result = await run(scripted);
    assert.deepEqual(result, route);
    assert.equal(scripted.callCount, 1);
    assert.deepEqual(scripted.lastRequest.tools, []);
    assert.match(
      messageText(scripted.lastRequest.messages[0]!),
      /Recent history \(oldest first\):\n<untrusted-data source="history">\n- item-1 /,
    );
  });

  it('leaves the history unchanged', async () => {
    const { history, loop } = await stuckRun();
    const before = structuredClone(history);
    const scripted = model(
      [
        toolCallReply('history_search', { query: 'parser' }),
        toolCallReply('history_trace', { agentId: 'discovery-agent-1' }),
      ],
      valueReply(route),
    );
    await runContextManager({
      model: scripted,
      request: asked(loop, AGENTS),
      history,
      token: cancellationSource().token,
    });
    assert.deepEqual(history, before);
  });

  it('stops without calling the model when cancelled', async () => {
    const cancellation = cancellationSource();
    cancellation.cancel();
    const scripted = model([], valueReply(route));
    await assert.rejects(run(scripted, { token: cancellation.token }), CancelledError);
    assert.equal(scripted.callCount, 0);
  });

  it('needs at least one agent type to route to', async () => {
    const { history, loop } = await stuckRun();
    await assert.rejects(run(model([], valueReply(route)), { history, request: asked(loop, []) }), RangeError);
  });
});
