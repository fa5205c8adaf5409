import assert from 'node:assert/strict';
import { jsonSchemaOf } from '../../../../../src/core/llm/structuredOutput';
import { withContextRequest } from '../../../../../src/core/plan/contextManager/contextManagerRequest';
import { discoveryReportRequest } from '../../../../../src/core/plan/drafts/discoveryReportRequest';
import { discoveryReportDraft } from '../../../../support/pipelineScript';

/** The discovery report request with spec 001's `contextRequest`, as an agent is sent it. */
const request = withContextRequest(discoveryReportRequest(new Set(['src/app.ts'])));

function normalized(reply: Record<string, unknown>): { value: unknown; notes: string[] } {
  const notes: string[] = [];
  const value = request.normalize(structuredClone(reply), note => notes.push(note));
  return { value, notes };
}

describe("an agent's own context request (spec 001's ContextManagerRoutingRequest in every agent reply)", () => {
  it('is offered as one optional string, the reason: Council adds the only type an agent may ask for', () => {
    const sent = jsonSchemaOf(request.schema) as {
      properties: Record<string, { type?: string; description?: string }>;
      required: string[];
    };
    const field = sent.properties['contextRequest'];
    assert.equal(field?.type, 'string');
    assert.match(field?.description ?? '', /Only if the context given is not enough/);
    assert.ok(!sent.required.includes('contextRequest'));
  });

  it('a reason becomes the routing request {type: introspect_agent_context, reason}; none means no request', () => {
    const asked = request.schema.parse({ ...discoveryReportDraft(), contextRequest: 'Which module is meant?' });
    assert.deepEqual(asked.contextRequest, { type: 'introspect_agent_context', reason: 'Which module is meant?' });
    assert.equal(request.schema.parse(discoveryReportDraft()).contextRequest, undefined);
  });

  it('a blank reason is refused, as every other required text', () => {
    assert.equal(request.schema.safeParse({ ...discoveryReportDraft(), contextRequest: '  ' }).success, false);
  });

  it("a reply in spec 001's object form is normalized to its reason, and the change is noted", () => {
    const { value, notes } = normalized({
      ...discoveryReportDraft(),
      contextRequest: { type: 'introspect_agent_context', reason: 'Still lost.' },
    });
    assert.equal((value as { contextRequest?: unknown }).contextRequest, 'Still lost.');
    assert.equal(notes.filter(note => note.includes('contextRequest')).length, 1);
    assert.deepEqual(request.schema.parse(value).contextRequest, {
      type: 'introspect_agent_context',
      reason: 'Still lost.',
    });
  });

  it('an object asking for a type an agent may not ask for (proceed) is left for validation to refuse', () => {
    const { value } = normalized({ ...discoveryReportDraft(), contextRequest: { type: 'proceed', reason: 'Go on.' } });
    assert.equal(request.schema.safeParse(value).success, false);
  });
});
