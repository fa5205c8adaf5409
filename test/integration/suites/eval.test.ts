import * as vscode from 'vscode';
import * as assert from '../assert';
import { councilExtension, fixture } from '../harness';
import { playCouncil } from '../councilPlay';
import { TOOL } from '../../../src/core/council/toolSession';
import { DECISIONS } from '../../../src/core/council/eval/decisions';
import { evalReport, type Answer, type EvalCase } from '../../../src/core/council/eval/evalReport';
import { singlePrompt } from '../../../src/core/council/eval/singlePrompt';
import { EVAL_REPORT_MARKER } from '../../eval/reportMarker';
import { toolResultFacts } from '../../eval/toolResultFacts';

/** `npm run eval` builds with COUNCIL_EVAL=1: every decision; the normal run checks the plumbing with one. */
const ALL = __COUNCIL_EVAL__;

/** UTF-8 text as base64, without spreading a long array into one call. */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function textOf(parts: readonly unknown[]): string {
  return parts.map(part => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** The council as an agent gets it: `council_deliberate` through the VS Code LM API. */
async function council(question: string, context: string): Promise<Answer> {
  const started = Date.now();
  const token = new vscode.CancellationTokenSource().token;
  const result = await vscode.lm.invokeTool(
    TOOL.deliberate,
    { input: { question, context }, toolInvocationToken: undefined },
    token,
  );
  const text = textOf(result.content);
  return {
    text,
    cost: /Spent: ([^\n]*?)\.\n/.exec(text)?.[1] ?? 'not reported',
    seconds: (Date.now() - started) / 1000,
  };
}

/** One prompt to the same model the tool uses (the first `vscode.lm` offers). */
async function single(model: vscode.LanguageModelChat, prompt: string): Promise<Answer> {
  const started = Date.now();
  const token = new vscode.CancellationTokenSource().token;
  const inputTokens = await model.countTokens(prompt, token);
  const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, token);
  let text = '';
  for await (const chunk of response.text) text += chunk;
  const outputTokens = await model.countTokens(text, token);
  return {
    text,
    cost: `1 request · ${inputTokens} tokens in, ${outputTokens} out`,
    seconds: (Date.now() - started) / 1000,
  };
}

describe('eval: the council against a single prompt', function () {
  this.timeout(ALL ? 30 * 60_000 : 60_000);

  it('answers each decision both ways through the VS Code LM API and writes the side-by-side report', async () => {
    await councilExtension();
    const api = await fixture();
    // The scripted model answers the council's steps; the plain prompt gets a plain answer (the plumbing, not quality).
    playCouncil(api, { questions: 0, decisionOptions: true }, step =>
      step === '' ? 'Use server-side sessions in Redis.' : undefined,
    );
    const [model] = await vscode.lm.selectChatModels();
    assert.ok(model, 'a chat model');
    const cases: EvalCase[] = [];
    for (const decision of ALL ? DECISIONS : DECISIONS.slice(0, 1)) {
      const answer = await council(decision.question, decision.context);
      cases.push({
        decision,
        council: answer,
        facts: toolResultFacts(answer.text),
        single: await single(model, singlePrompt(decision)),
      });
    }
    const report = evalReport(model.name, cases, new Date(), 'the council as `council_deliberate` runs it');
    const [first] = cases;
    assert.match(first?.council.text ?? '', /## The council's answer/);
    assert.match(first?.council.cost ?? '', /^\d+ requests? · /);
    assert.equal(first?.single.text, 'Use server-side sessions in Redis.');
    assert.match(report, new RegExp(`## ${DECISIONS[0]!.id}: `));
    assert.match(report, /### Rubric: the council\n\n- \[ \] /);
    assert.match(report, /\*\*Better answer:\*\*/);
    // Per decision: whether the council escalated to a debate, its vote and its combined confidence.
    assert.match(
      report,
      /- _Council escalated to a debate:_ yes: 2 debate cycles\n- _Vote:_ .+\n- _Combined confidence:_ \w+ agreement: /,
    );
    // One line the eval script finds in the test output, whatever the host's log does with long text.
    console.log(`${EVAL_REPORT_MARKER}${base64(report)}`);
  });
});
