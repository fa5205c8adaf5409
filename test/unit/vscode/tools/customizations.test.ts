import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TOOL } from '../../../../src/core/council/toolSession';
import { RUN_ID } from '../../../../src/core/workflow/engine/runId';
import { nonPortable } from '../../../support/portableSchemaRules';

/*
 * The custom agent and the skill are read by VS Code, not by Council: what they name must exist. A renamed tool, a
 * moved file or a front matter VS Code cannot read would ship an agent that silently has no tools.
 */

const root = join(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
  contributes: {
    languageModelTools: { name: string; toolReferenceName?: string; inputSchema: object }[];
    chatAgents: { path: string }[];
    chatSkills: { path: string }[];
  };
};

/** The YAML front matter of a Markdown file and its body. */
function frontMatter(path: string): { readonly header: Record<string, unknown>; readonly body: string } {
  const text = readFileSync(join(root, path), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert.ok(match, `${path} starts with front matter`);
  return { header: parse(match[1] ?? '') as Record<string, unknown>, body: match[2] ?? '' };
}

describe('the Council custom agent and skill (chatAgents, chatSkills)', () => {
  const extensionId = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  const tools = manifest.contributes.languageModelTools;

  it('package.json contributes each of the four tools, the agent and the skill', () => {
    assert.deepEqual(tools.map(t => t.name).sort(), Object.values(TOOL).sort());
    assert.equal(manifest.contributes.chatAgents.length, 1);
    assert.equal(manifest.contributes.chatSkills.length, 1);
  });

  it('each tool takes its input in the portable subset: an agent on any model family can call it', () => {
    for (const tool of tools) assert.deepEqual(nonPortable(tool.inputSchema), [], tool.name);
  });

  it("every run id a tool schema takes has Council's one run-id pattern (a changed id format cannot leave one behind)", () => {
    const patterns = tools.flatMap(tool => {
      const runId = (tool.inputSchema as { properties?: Record<string, { pattern?: string }> }).properties?.runId;
      return runId ? [runId.pattern] : [];
    });
    assert.equal(patterns.length, 2, 'council_plan and council_workflow take a runId');
    for (const pattern of patterns) assert.equal(pattern, RUN_ID.source);
  });

  it("the agent's tools are Council's tools by their full reference names, and its handoffs go back to it", () => {
    const [agent] = manifest.contributes.chatAgents;
    const { header, body } = frontMatter(agent?.path ?? '');
    assert.equal(header.name, 'Council');
    const listed = header.tools as string[];
    for (const tool of tools)
      assert.ok(listed.includes(`${extensionId}/${tool.toolReferenceName}`), `${tool.name} is in the agent's tools`);
    assert.ok(listed.includes('vscode/askQuestions'), "VS Code's question tool is the agent's too");
    const handoffs = header.handoffs as { label: string; agent: string; prompt: string }[];
    assert.deepEqual(
      handoffs.map(h => h.label),
      ['Extend the debate', 'Revisit skipped questions', 'Plan this'],
    );
    for (const handoff of handoffs) assert.equal(handoff.agent, 'Council');
    for (const name of Object.values(TOOL)) assert.ok(body.includes(name), `the protocol names ${name}`);
  });

  it("the skill's name is its folder's, its description says when to use it, and it carries the whole protocol", () => {
    const [skill] = manifest.contributes.chatSkills;
    const path = skill?.path ?? '';
    const { header, body } = frontMatter(path);
    assert.equal(header.name, path.split('/').at(-2), 'a skill is named after its folder');
    const description = String(header.description);
    assert.ok(description.length <= 1024, `a skill description is at most 1024 characters: ${description.length}`);
    assert.match(description, /trade-offs/);
    for (const name of Object.values(TOOL)) assert.ok(body.includes(name), `the skill names ${name}`);
    for (const step of ['one at a time', 'recommended answer', 'assumption', 'vote', 'dissent', 'retry'])
      assert.ok(body.toLowerCase().includes(step), `the skill says: ${step}`);
  });
});
