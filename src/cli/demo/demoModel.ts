import { WRITE_ANSWER_TASK } from '../../core/council/prompts/answerTask';
import {
  CancelledError,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ResponsePart,
} from '../../core/llm/languageModel';
import { RESPONSE_FORMAT_HEADING } from '../../core/llm/structuredOutput';
import { messageText } from '../../core/llm/usage';
import { SINGLE_PROMPT_OPENING } from '../../core/council/eval/singlePrompt';
import { ANSWER_STEP, demoCouncilReply, SINGLE_PROMPT_STEP } from './demoCouncil';
import { demoPlanReply, PLAN_TOOLS } from './demoPlan';

/*
 * The model `council ask --demo` and `council plan --demo` run on: the demo council's and the demo plan's scripted
 * replies, no key and no network. It answers each step as the real model would be asked for it: a tool call when the
 * step's tool is offered, fenced JSON when the schema came in the prompt, the answer (and an agent's exploration) as
 * prose.
 */

/** The question the demo council plays. */
export const DEMO_DECISION = 'How should we store user sessions for our web app?';

/** The goal the demo plan works on (what the demo council recommended), in the folder the command runs in. */
export const DEMO_PLAN_GOAL = 'Make user sessions expire and revocable, and store them in Redis.';

/** A `/plan` agent's structured reply (demoPlan.ts), else the council's (demoCouncil.ts). */
function demoReply(step: string, prompt: string, schema: unknown): object | string[] | undefined {
  const plan = PLAN_TOOLS.find(tool => tool === step);
  return (plan && demoPlanReply(plan, schema, prompt)) ?? demoCouncilReply(step, prompt, schema);
}

const FENCED_SCHEMA = /## Response format: \S+[\s\S]*?JSON Schema:\n```json\n([\s\S]*?)\n```/;

/** The council step a request is for: its required tool, the fenced-JSON format's name, or the prose answer. */
function stepOf(request: ModelRequest, prompt: string): string {
  const tool = request.toolMode === 'required' ? request.tools?.[0]?.name : undefined;
  if (tool) return tool;
  const at = prompt.lastIndexOf(RESPONSE_FORMAT_HEADING);
  const named = at >= 0 ? /^[\w.-]+/.exec(prompt.slice(at + RESPONSE_FORMAT_HEADING.length))?.[0] : undefined;
  if (named) return named;
  if (prompt.includes(WRITE_ANSWER_TASK)) return ANSWER_STEP;
  return prompt.startsWith(SINGLE_PROMPT_OPENING) ? SINGLE_PROMPT_STEP : '';
}

/** The schema the step was sent: the tool's input schema, or the one in the fenced-JSON instruction. */
function schemaOf(request: ModelRequest, step: string, prompt: string): unknown {
  const offered = request.tools?.find(tool => tool.name === step)?.inputSchema;
  if (offered) return offered;
  const json = FENCED_SCHEMA.exec(prompt.slice(prompt.lastIndexOf(RESPONSE_FORMAT_HEADING)))?.[1];
  return json ? (JSON.parse(json) as unknown) : undefined;
}

export class DemoModel implements LanguageModel {
  readonly id = 'council-demo';
  readonly name = 'Demo council (scripted, no network)';
  readonly family = 'council-demo';
  readonly vendor = 'council';
  readonly maxInputTokens = 128_000;
  readonly supportsToolCalling = true;

  countTokens(text: string): Promise<number> {
    return Promise.resolve(Math.ceil(text.length / 4));
  }

  async *sendRequest(request: ModelRequest, token: CancellationSignal): AsyncGenerator<ResponsePart> {
    if (token.isCancellationRequested) throw new CancelledError();
    const prompt = request.messages.map(messageText).join('\n');
    const step = stepOf(request, prompt);
    const value = demoReply(step, prompt, schemaOf(request, step, prompt));
    if (Array.isArray(value)) {
      for (const text of value) yield { kind: 'text', text };
    } else if (value && request.tools?.some(tool => tool.name === step)) {
      yield { kind: 'toolCall', callId: `demo-${step}`, name: step, input: value };
    } else if (value) {
      yield { kind: 'text', text: '```json\n' + JSON.stringify(value) + '\n```' };
    } else {
      yield { kind: 'text', text: 'I have looked at what I need; the session store is small and well covered.' };
    }
  }
}
