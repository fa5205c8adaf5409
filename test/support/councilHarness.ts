import { PriceBook, type ModelPrice } from '../../src/core/llm/spending/prices';
import type { Clock, IdSource } from '../../src/core/clock';
import type { CouncilDeps, CouncilOutput } from '../../src/core/council/ports';
import type { DebateProtocol } from '../../src/core/council/protocol';
import { neverCancelled, type CancellationSignal, type ModelRequest } from '../../src/core/llm/languageModel';
import { messageText } from '../../src/core/llm/usage';
import type { PersonaContract } from '../../src/core/personas/contract';
import { loadPersonas } from '../../src/core/personas/registry';
import type { StoredSession } from '../../src/core/session/storedSession';
import { councilReply, councilStep, isProse, type CouncilScriptOptions } from './councilScript';
import { nodePersonaSource } from './nodePersonaSource';
import {
  requestedName,
  ScriptedModel,
  valueReply,
  type Responder,
  type ScriptedModelOptions,
  type ScriptedReply,
} from './scriptedModel';

/** What a council turn showed the user. */
export class RecordingOutput implements CouncilOutput {
  readonly parts: { readonly kind: 'progress' | 'markdown'; readonly text: string }[] = [];
  progress(message: string): void {
    this.parts.push({ kind: 'progress', text: message });
  }
  markdown(text: string): void {
    this.parts.push({ kind: 'markdown', text });
  }
  get text(): string {
    return this.parts
      .filter(p => p.kind === 'markdown')
      .map(p => p.text)
      .join('');
  }
  clear(): void {
    this.parts.length = 0;
  }
}

/** A clock that advances one second per reading, so timestamps are ordered and reproducible. */
export function steppingClock(start = Date.UTC(2026, 0, 1)): Clock {
  let now = start;
  return { now: () => new Date((now += 1000)).toISOString() };
}

export function counterIds(prefix = 'id'): IdSource {
  let n = 0;
  return { next: () => `${prefix}-${++n}` };
}

let builtIns: Promise<readonly PersonaContract[]> | undefined;
/** The repository's built-in personas. */
export function builtInPersonas(): Promise<readonly PersonaContract[]> {
  builtIns ??= loadPersonas({ builtIn: nodePersonaSource() }).then(r => r.personas);
  return builtIns;
}

/** A responder playing the scripted council; `override` may answer a step differently (return undefined to fall through). */
export function councilResponder(
  options: CouncilScriptOptions = {},
  override?: (step: string, request: ModelRequest, callIndex: number) => ScriptedReply | undefined,
): Responder {
  return (request, callIndex) => {
    const prompt = request.messages.map(messageText).join('\n');
    const step = councilStep(requestedName(request), prompt);
    const custom = override?.(step, request, callIndex);
    if (custom !== undefined) return custom;
    const value = councilReply(step, prompt, options);
    if (value === undefined) throw new Error(`councilResponder: no reply for step "${step}"`);
    return isProse(value)
      ? { kind: 'parts', parts: value.prose.map(text => ({ kind: 'text' as const, text })) }
      : valueReply(value);
  };
}

/** Everything a council test needs. */
export interface CouncilRig {
  readonly deps: CouncilDeps;
  readonly model: ScriptedModel;
  readonly output: RecordingOutput;
  readonly persisted: StoredSession[];
}

/** What the scripted model costs in council tests: Claude Sonnet 4.6's price. */
export const SCRIPTED_PRICE: ModelPrice = { input: 3, output: 15 };

export async function councilRig(
  options: {
    readonly script?: CouncilScriptOptions;
    readonly responder?: Responder;
    readonly model?: ScriptedModelOptions;
    readonly token?: CancellationSignal;
    /** The debate protocol (default: the core's default, economy). */
    readonly protocol?: DebateProtocol;
    readonly maxRequests?: number;
    /** A credit limit; the scripted model is priced at `price` (default $3 / $15 per million tokens). */
    readonly maxCredits?: number;
    readonly price?: ModelPrice;
  } = {},
): Promise<CouncilRig> {
  const model = new ScriptedModel(options.responder ?? councilResponder(options.script), options.model);
  const output = new RecordingOutput();
  const persisted: StoredSession[] = [];
  const deps: CouncilDeps = {
    model,
    personas: await builtInPersonas(),
    clock: steppingClock(),
    ids: counterIds(),
    output,
    token: options.token ?? neverCancelled,
    persist: stored => void persisted.push(stored),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    spending: {
      limits: { maxRequests: options.maxRequests, maxCredits: options.maxCredits },
      prices: new PriceBook({ [options.model?.family ?? 'scripted']: options.price ?? SCRIPTED_PRICE }),
    },
  };
  return { deps, model, output, persisted };
}
