import assert from 'node:assert/strict';
import { planSchemas, toolSchemas } from '../../support/sentSchemas';
import { estimateTokens } from '../../support/scriptedModel';

/**
 * The most tokens (4 characters each, as the bench bills them) each schema /plan sends may take, in a 20-file
 * workspace (the bench's size: its file lists spelled out, once per schema). Every request bills its schema again,
 * and the schemas were half of what a /plan run cost (issue 37: 18,599 of 36,660 billed input tokens). Before the
 * cut: discovery_report 1,880, discovery_collector_result 2,828, planning_agent_result 818,
 * planning_collector_result 1,757, ticket_agent_result 967, ticket_collector_result 884, the workspace tools 231 (195
 * before their limits lost a description the name and bounds say; 163 after). The whole run: planBilledInput.test.ts.
 * A schema that needs more says why in its review, and its budget here moves with it. Spec 001 (issue 39): every
 * agent reply's optional `contextRequest` added 92 tokens (46 since it is sent as one string, the reason); the
 * discovery and planning collectors' `proceed` ~25. Issue 37 again (h37b): what Council fills itself is not asked
 * (relevanceScores, mermaidSource, inputType, a one-value discoveryResultId or ticketId), descriptions the prompt or the
 * field's name already say are gone, and a collector's input ids are listed once: 1,565 / 2,290 / 770 / 1,500 / 845 /
 * 735 before.
 */
const BUDGETS: Readonly<Record<string, number>> = {
  discovery_report: 1_320,
  discovery_collector_result: 2_130,
  planning_agent_result: 710,
  planning_collector_result: 1_370,
  ticket_agent_result: 790,
  ticket_collector_result: 610,
};

/** The read-only workspace tools' input schemas together: sent with every exploring request. */
const WORKSPACE_TOOLS_BUDGET = 165;

const WORKSPACE_FILES = 20;

describe('/plan schema budget: what each request bills for its schema does not grow unnoticed', () => {
  const sent = new Map(
    planSchemas(WORKSPACE_FILES).map(({ label, schema }) => [label.replace(/ \(.*\)$/, ''), schema] as const),
  );

  for (const [name, budget] of Object.entries(BUDGETS)) {
    it(`${name} stays within ${budget} tokens`, () => {
      const schema = sent.get(name);
      assert.ok(schema, `${name} is one of the schemas /plan sends`);
      const tokens = estimateTokens(JSON.stringify(schema));
      assert.ok(tokens <= budget, `${name} takes ${tokens} tokens, over its budget of ${budget}`);
    });
  }

  it(`the workspace tools stay within ${WORKSPACE_TOOLS_BUDGET} tokens`, () => {
    const workspace = toolSchemas().filter(({ label }) =>
      ['list_files', 'read_file_range', 'search_text'].some(name => label === `tool ${name}`),
    );
    assert.equal(workspace.length, 3);
    const tokens = workspace.reduce((sum, { schema }) => sum + estimateTokens(JSON.stringify(schema)), 0);
    assert.ok(tokens <= WORKSPACE_TOOLS_BUDGET, `the workspace tools take ${tokens} tokens`);
  });
});
