import { councilReply, type CouncilScriptOptions } from '../support/councilScript';
import type { FixtureApi, ScriptedReply, ScriptedRequest } from './fixture/src/api';
import { RESPONSE_FORMAT_HEADING } from '../../src/core/llm/structuredOutput';

/** The council step a request is for: its required tool, or the fenced-JSON instruction's marker. */
export function stepOf(request: ScriptedRequest): string {
  if (request.toolMode === 'required' && request.tools[0]) return request.tools[0].name;
  const text = request.messages.map(m => m.text).join('\n');
  const at = text.lastIndexOf(RESPONSE_FORMAT_HEADING);
  return at >= 0 ? (/^[\w.-]+/.exec(text.slice(at + RESPONSE_FORMAT_HEADING.length))?.[0] ?? '') : '';
}

/** Makes the fixture's models play the scripted council; `override` may answer a step differently. */
export function playCouncil(api: FixtureApi, options: CouncilScriptOptions = {}, override?: (step: string, request: ScriptedRequest) => ScriptedReply | undefined): void {
  api.setResponder(request => {
    const step = stepOf(request);
    const custom = override?.(step, request);
    if (custom !== undefined) return custom;
    const value = councilReply(step, request.messages.map(m => m.text).join('\n'), options);
    if (value === undefined) return `no scripted council reply for "${step}"`;
    return request.toolMode === 'required'
      ? { toolCall: { name: step, input: value as object } }
      : '```json\n' + JSON.stringify(value) + '\n```';
  });
}

/** The steps the council asked the models for, in order. */
export function stepsCalled(api: FixtureApi): string[] {
  return api.requests().map(stepOf);
}
