import assert from 'node:assert/strict';
import { ZodError, type z } from 'zod';
import type { HistorySnapshot } from '../../../../../src/core/plan/history/historyItem';
import { getHistoryItem, HistoryItemRequestSchema } from '../../../../../src/core/plan/history/tools/getHistoryItem';
import { READ_ONLY_HISTORY_TOOLS } from '../../../../../src/core/plan/history/tools/historyTools';
import { HistoryListingRequestSchema, listHistory } from '../../../../../src/core/plan/history/tools/listHistory';
import { HistorySearchRequestSchema, searchHistory } from '../../../../../src/core/plan/history/tools/searchHistory';
import { HistoryTraceRequestSchema, traceHistory } from '../../../../../src/core/plan/history/tools/traceHistory';
import { at, historyOf, idsOf, invocation } from './fixtures';

/** Each tool as its call is read: the request parsed against its schema (defaults filled in, rules checked), then run. */
const trace = (history: HistorySnapshot, request: z.input<typeof HistoryTraceRequestSchema>) =>
  traceHistory(history, HistoryTraceRequestSchema.parse(request));
const list = (history: HistorySnapshot, request: z.input<typeof HistoryListingRequestSchema>) =>
  listHistory(history, HistoryListingRequestSchema.parse(request));
const search = (history: HistorySnapshot, request: z.input<typeof HistorySearchRequestSchema>) =>
  searchHistory(history, HistorySearchRequestSchema.parse(request));
const item = (history: HistorySnapshot, request: z.input<typeof HistoryItemRequestSchema>) =>
  getHistoryItem(history, HistoryItemRequestSchema.parse(request));

const planner = {
  agentType: 'planning-agent',
  agentId: 'planning-agent-1',
  action: 'plan',
  inputType: 'PlanningAgentRequest',
};

describe('history tools', () => {
  describe('traceHistory', () => {
    it('filters by agent type, agent instance and action, combined with AND', async () => {
      const { snapshot } = historyOf([
        invocation(1),
        invocation(2, planner),
        invocation(3, { agentId: 'discovery-agent-2' }),
        invocation(4, { action: 'refine' }),
      ]);
      assert.deepEqual(idsOf(trace(snapshot, { agentType: 'discovery-agent' }).entries), [
        'item-1',
        'item-3',
        'item-4',
      ]);
      assert.deepEqual(idsOf(trace(snapshot, { agentId: 'discovery-agent-1' }).entries), ['item-1', 'item-4']);
      assert.deepEqual(idsOf(trace(snapshot, { agentType: 'discovery-agent', action: 'discover' }).entries), [
        'item-1',
        'item-3',
      ]);
      assert.deepEqual(trace(snapshot, { agentType: 'review-agent' }), { entries: [], total: 0 });
    });

    it('follows a context chain upstream and leaves unrelated branches out', async () => {
      const { snapshot } = historyOf([
        invocation(1, { contextId: 'ctx-discovery' }),
        invocation(2, { contextId: 'ctx-other' }),
        invocation(3, { ...planner, contextId: 'ctx-plan', upstreamContextIds: ['ctx-discovery'] }),
        invocation(4, {
          agentType: 'ticket-agent',
          agentId: 'ticket-agent-1',
          contextId: 'ctx-ticket',
          upstreamContextIds: ['ctx-plan'],
        }),
      ]);
      assert.deepEqual(idsOf(trace(snapshot, { contextId: 'ctx-ticket' }).entries), ['item-1', 'item-3', 'item-4']);
      assert.deepEqual(idsOf(trace(snapshot, { contextId: 'ctx-ticket', agentType: 'planning-agent' }).entries), [
        'item-3',
      ]);
      assert.deepEqual(trace(snapshot, { contextId: 'ctx-unknown' }).entries, []);
    });

    it('terminates on a cyclic chain', async () => {
      const { snapshot } = historyOf([
        invocation(1, { contextId: 'ctx-a', upstreamContextIds: ['ctx-b'] }),
        invocation(2, { contextId: 'ctx-b', upstreamContextIds: ['ctx-a'] }),
      ]);
      assert.deepEqual(idsOf(trace(snapshot, { contextId: 'ctx-a' }).entries), ['item-1', 'item-2']);
    });

    it('keeps the most recent items when the limit cuts, and reports the total', async () => {
      const { snapshot } = historyOf([invocation(1), invocation(2), invocation(3)]);
      const response = trace(snapshot, { agentType: 'discovery-agent', limit: 2 });
      assert.deepEqual(idsOf(response.entries), ['item-2', 'item-3']);
      assert.equal(response.total, 3);
    });
  });

  describe('listHistory', () => {
    it('pages in stable append order, with hasMore and nextOffset at the edges', async () => {
      const { snapshot } = historyOf([invocation(1), invocation(2), invocation(3), invocation(4), invocation(5)]);
      const page = (offset: number, limit: number) => {
        const { entries, ...rest } = list(snapshot, { offset, limit });
        return { ids: idsOf(entries), ...rest };
      };
      assert.deepEqual(page(0, 2), { ids: ['item-1', 'item-2'], total: 5, hasMore: true, nextOffset: 2 });
      assert.deepEqual(page(2, 2), { ids: ['item-3', 'item-4'], total: 5, hasMore: true, nextOffset: 4 });
      assert.deepEqual(page(4, 2), { ids: ['item-5'], total: 5, hasMore: false, nextOffset: 5 });
      assert.deepEqual(page(0, 5), {
        ids: ['item-1', 'item-2', 'item-3', 'item-4', 'item-5'],
        total: 5,
        hasMore: false,
        nextOffset: 5,
      });
      assert.deepEqual(page(5, 2), { ids: [], total: 5, hasMore: false, nextOffset: 5 });
      assert.deepEqual(page(9, 2), { ids: [], total: 5, hasMore: false, nextOffset: 5 });
    });

    it('defaults to the first page and handles an empty history', async () => {
      const { snapshot } = historyOf([]);
      assert.deepEqual(list(snapshot, {}), { entries: [], total: 0, hasMore: false, nextOffset: 0 });
    });

    it('restricts to a time window, start inclusive and end exclusive', async () => {
      const { snapshot } = historyOf([invocation(1), invocation(2), invocation(3), invocation(4)]);
      const response = list(snapshot, { startTime: at(2), endTime: at(4) });
      assert.deepEqual(idsOf(response.entries), ['item-2', 'item-3']);
      assert.equal(response.total, 2);
    });

    it('refuses a page size outside 1-100', async () => {
      const { snapshot } = historyOf([]);
      assert.throws(() => list(snapshot, { limit: 0 }), ZodError);
      assert.throws(() => list(snapshot, { limit: 101 }), ZodError);
    });
  });

  describe('searchHistory', () => {
    async function searchable() {
      const built = historyOf([
        invocation(1, {
          input: { goal: 'map the parser module' },
          outcome: { status: 'succeeded', output: { files: ['src/a.ts'] } },
        }),
        invocation(2, {
          input: { goal: 'map the lexer' },
          outcome: { status: 'succeeded', output: { summary: 'parser and lexer share tokens; parser parser' } },
        }),
        invocation(3, {
          ...planner,
          input: { goal: 'plan' },
          outcome: { status: 'failed', error: { message: 'Timeout while planning' } },
        }),
        invocation(4, { input: { goal: 'unrelated' }, outcome: { status: 'succeeded', output: { files: [] } } }),
      ]);
      return built.history.snapshot();
    }

    it('ranks by distinct words matched, then occurrences, then history order', async () => {
      const snapshot = await searchable();
      const response = search(snapshot, { query: 'PARSER lexer' });
      assert.deepEqual(
        response.hits.map(hit => [hit.item.itemId, hit.termsMatched, hit.occurrences]),
        [
          ['item-2', 2, 5],
          ['item-1', 1, 1],
        ],
      );
      assert.deepEqual(response.hits[0]!.matchedIn, ['input', 'output']);
    });

    it('finds failures by their error message', async () => {
      const snapshot = await searchable();
      assert.deepEqual(idsOf(search(snapshot, { query: 'timeout' }).hits.map(hit => hit.item)), ['item-3']);
    });

    it('returns nothing for a miss and respects maxResults', async () => {
      const snapshot = await searchable();
      assert.deepEqual(search(snapshot, { query: 'database' }), { hits: [] });
      assert.equal(search(snapshot, { query: 'map', maxResults: 1 }).hits.length, 1);
      assert.throws(() => search(snapshot, { query: '   ' }), ZodError);
    });
  });

  describe('getHistoryItem', () => {
    it('finds an item by id or by index', async () => {
      const { history } = historyOf([invocation(1), invocation(2)]);
      const snapshot = await history.snapshot();
      const byId = item(snapshot, { itemId: 'item-2' });
      assert.ok(byId.found);
      assert.equal(byId.index, 1);
      assert.equal(byId.item.itemId, 'item-2');
      assert.deepEqual(item(snapshot, { index: 1 }), byId);
    });

    it('answers "not found" for an unknown id or an index past the end', async () => {
      const { snapshot } = historyOf([invocation(1)]);
      assert.deepEqual(item(snapshot, { itemId: 'item-7' }), {
        found: false,
        message: 'No history item with id item-7; valid indices are 0-0.',
      });
      assert.deepEqual(item(snapshot, { index: 1 }), {
        found: false,
        message: 'No history item with index 1; valid indices are 0-0.',
      });
      const empty = historyOf([]).snapshot;
      assert.deepEqual(item(empty, { index: 0 }), {
        found: false,
        message: 'No history item with index 0; history is empty.',
      });
    });

    it('requires exactly one of id and index', async () => {
      const { snapshot } = historyOf([invocation(1)]);
      assert.throws(() => item(snapshot, {}), ZodError);
      assert.throws(() => item(snapshot, { itemId: 'item-1', index: 0 }), ZodError);
    });
  });

  describe('READ_ONLY_HISTORY_TOOLS', () => {
    it('offers trace, list, search and item, each with an object JSON Schema', () => {
      assert.deepEqual(
        READ_ONLY_HISTORY_TOOLS.map(tool => tool.definition.name),
        ['history_trace', 'history_list', 'history_search', 'history_item'],
      );
      for (const tool of READ_ONLY_HISTORY_TOOLS) {
        assert.equal((tool.definition.inputSchema as { type?: unknown }).type, 'object', tool.definition.name);
      }
    });

    it('runs a valid call and refuses an invalid one with a readable message', async () => {
      const { snapshot } = historyOf([invocation(1)]);
      const searchTool = READ_ONLY_HISTORY_TOOLS.find(tool => tool.definition.name === 'history_search')!;
      assert.equal(
        searchTool.invoke({ query: 'parser' }, snapshot),
        JSON.stringify(search(snapshot, { query: 'parser' })),
      );
      assert.match(searchTool.invoke({ query: 42 }, snapshot), /Invalid input for history_search: .*query/s);
      const listTool = READ_ONLY_HISTORY_TOOLS.find(tool => tool.definition.name === 'history_list')!;
      assert.equal(
        listTool.invoke(undefined, snapshot),
        JSON.stringify(list(snapshot, {})),
        'a call without arguments uses the defaults',
      );
    });
  });
});
