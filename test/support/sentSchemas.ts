import type { z } from 'zod';
import { jsonSchemaOf } from '../../src/core/llm/structuredOutput';
import { openingReplySchema } from '../../src/core/council/opening';
import { selectionReplySchema } from '../../src/core/personas/select';
import {
  CycleVerdictSchema,
  PersonaConclusionSchema,
  ProposedQuestionsSchema,
  contributionReplySchema,
} from '../../src/core/council/prompts/replies';
import { discoveryReportRequest } from '../../src/core/plan/drafts/discoveryReportRequest';
import { discoveryCollectorRequest } from '../../src/core/plan/drafts/discoveryCollectorRequest';
import { planningAgentRequest, planningCollectorRequest } from '../../src/core/plan/drafts/planningRequest';
import { ticketAgentRequest } from '../../src/core/plan/drafts/ticketAgentRequest';
import { ticketCollectorRequest } from '../../src/core/plan/drafts/consolidationRequest';
import { routingSchemaFor } from '../../src/core/plan/contextManager/routing';
import { WORKSPACE_TOOLS } from '../../src/core/workspace/workspaceTools';
import { addNoteTool, READ_ONLY_HISTORY_TOOLS } from '../../src/core/plan/history/tools/historyTools';
import { withContextRequest } from '../../src/core/plan/contextManager/contextManagerRequest';

/** One schema Council sends (as a tool's inputSchema or in a fenced-JSON prompt), labelled for a test message. */
export interface SentSchema {
  readonly label: string;
  readonly schema: object;
}

/** `count` workspace files in a few folders. */
export function workspaceFiles(count: number): Set<string> {
  return new Set(Array.from({ length: count }, (_, i) => `src/part${i % 5}/module${i}.ts`));
}

/** Workspace sizes the /plan schemas are built for: none, a few, past the spell-once size, past the enum cap. */
export const WORKSPACE_SIZES: readonly number[] = [0, 8, 150, 204];

const PERSONAS = ['architect', 'security', 'tester', 'product'] as const;

function sent(label: string, schema: z.ZodType): SentSchema {
  return { label, schema: jsonSchemaOf(schema) };
}

/** The council's and the personas' reply schemas. */
export function councilSchemas(): SentSchema[] {
  return [
    sent('select_personas', selectionReplySchema(PERSONAS, 4)),
    sent('open_session', openingReplySchema(PERSONAS, 4)),
    sent('propose_clarifying_questions', ProposedQuestionsSchema),
    sent('contribute_to_debate (cycle 1)', contributionReplySchema({ cycle: 1, colleagues: [] })),
    sent(
      'contribute_to_debate (cycle 2)',
      contributionReplySchema({ cycle: 2, colleagues: ['Position A', 'Position B'] }),
    ),
    sent('contribute_to_debate (cycle 2, alone)', contributionReplySchema({ cycle: 2, colleagues: [] })),
    sent('moderate_cycle', CycleVerdictSchema),
    sent('give_conclusion', PersonaConclusionSchema),
  ];
}

/** /plan's stage schemas (the workflow's agent and collector replies, and the context manager's routing) for `count` files. */
export function planSchemas(count: number): SentSchema[] {
  const files = workspaceFiles(count);
  const at = (name: string) => `${name} (${count} files)`;
  const collector = { inputIds: ['ctx-1', 'ctx-2'], agentIds: ['agent-1', 'agent-2'] };
  const tickets = { files, discoveryResultId: 'ctx-0' };
  return [
    sent(at('discovery_report'), withContextRequest(discoveryReportRequest(files)).schema),
    sent(
      at('discovery_collector_result'),
      discoveryCollectorRequest({ ...collector, files, queryIds: ['q-1', 'q-2'] }).schema,
    ),
    sent(at('planning_agent_result'), withContextRequest(planningAgentRequest(tickets)).schema),
    sent(at('planning_collector_result'), planningCollectorRequest({ ...tickets, ...collector }).schema),
    sent(at('ticket_agent_result'), withContextRequest(ticketAgentRequest({ files, ticketId: 'T-1' })).schema),
    sent(at('ticket_collector_result'), ticketCollectorRequest(collector).schema),
    sent(at('route_context'), routingSchemaFor(['discovery-agent', 'planning-agent'], new Set(['item-1', 'item-2']))),
  ];
}

/** The tools Council offers a model: the workspace tools and the /plan history tools (add-note among them). */
export function toolSchemas(): SentSchema[] {
  const addNote = addNoteTool(() => {
    throw new Error('not called');
  });
  return [...WORKSPACE_TOOLS, ...READ_ONLY_HISTORY_TOOLS, addNote].map(tool => ({
    label: `tool ${tool.definition.name}`,
    schema: tool.definition.inputSchema,
  }));
}

/** Every schema Council can send, at every workspace size. */
export function everySentSchema(): SentSchema[] {
  return [...councilSchemas(), ...WORKSPACE_SIZES.flatMap(planSchemas), ...toolSchemas()];
}
