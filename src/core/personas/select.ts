import { ActionableError } from '../actionableError';
import { z } from 'zod';
import {
  LanguageModelFailure,
  throwIfCancelled,
  type CancellationSignal,
  type LanguageModel,
} from '../llm/languageModel';
import { requestStructured } from '../llm/structuredOutput';
import { renderMessages } from '../llm/prompting/render';
import { SelectPersonasPrompt } from './selectionPrompt';
import { rebound, SELECTION_ATTACHMENT_BUDGET } from '../session/attachedContext';
import type { AttachedItem } from '../session/attachedItem';
import { PersonaContractSchema, RequestClassificationSchema, type PersonaContract } from './contract';
import { explicitPersonaNames } from './naming';
import { selectionNormalizer } from './selectionNormalizer';
import { OPTION_LABELS, type DecisionOption } from '../session/decisionOptions';
import { DEBATE_OUTLOOKS, outlookField, type DebateOutlook } from '../session/debateOutlook';

/** Panel size the model may choose (spec: at least 2 personas for a real discussion). */
export const MIN_PANEL = 2;
export const MAX_PANEL = 4;

const selectionFields = {
  classification: RequestClassificationSchema,
  personas: z.array(PersonaContractSchema).min(1).readonly(),
  /** Shown to the user: why this panel. */
  reason: z.string().min(1),
  /** The decision's options (numbered 1, 2… in order); absent when the request is no choice between alternatives. */
  options: z.array(z.object({ label: z.enum(OPTION_LABELS), option: z.string().min(1) })).optional(),
  /** The model's read of how far apart the council will start (absent: no read, e.g. a council the user named). */
  outlook: z.enum(DEBATE_OUTLOOKS).optional(),
};

/**
 * Which personas sit on the council for a request, and why (spec 004 PersonaSelection).
 * `overriddenPersonas` holds the display names the user asked for, and is empty unless `userOverride`.
 */
export const PersonaSelectionSchema = z.discriminatedUnion('userOverride', [
  z.object({
    ...selectionFields,
    userOverride: z.literal(true),
    overriddenPersonas: z.array(z.string()).min(1).readonly(),
  }),
  z.object({
    ...selectionFields,
    userOverride: z.literal(false),
    overriddenPersonas: z.array(z.string()).max(0).readonly(),
  }),
]);
export type PersonaSelection = Readonly<z.infer<typeof PersonaSelectionSchema>>;

/**
 * What the model must reply, built per request: ids are an enum of the known ones and listed once
 * (`uniqueItems`); selectionNormalizer fixes a repeated or misspelled id before validation.
 */
export function selectionReplySchema(knownIds: readonly [string, ...string[]], maxPersonas: number) {
  return z.object({
    classification: RequestClassificationSchema.describe('The one kind of request this is.'),
    personaIds: z
      .array(z.enum(knownIds))
      .min(MIN_PANEL)
      .max(maxPersonas)
      .refine(ids => new Set(ids).size === ids.length, { error: 'list each persona id only once' })
      .meta({ uniqueItems: true })
      .describe('The ids of the personas who should debate this request, each once.'),
    reason: z
      .string()
      .regex(/\S/, 'must not be blank')
      .trim()
      .describe('One or two sentences for the user: why these personas.'),
    decisionOptions: decisionOptionsField,
    outlook: outlookField,
  });
}

/**
 * The decision's options as the model is asked for them: 2-4 short, mutually exclusive choices; they are labelled
 * A, B, C, D in the order given, and each persona's first draft backs one of them (or "another answer").
 */
const decisionOptionsField = z
  .array(z.string().regex(/\S/, 'must not be blank').trim().max(200))
  .min(2)
  .max(OPTION_LABELS.length)
  .meta({ uniqueItems: true })
  .optional()
  .describe(
    'When the request asks to choose between alternatives (or has a few natural answers): 2-4 short, mutually exclusive options, one phrase each, most likely first; they are numbered 1-4 in this order and each persona backs one. Omit when the request is not a decision.',
  );

/** The options of a reply, labelled in order (repeats dropped, at most four); undefined when fewer than two. */
function labelledOptions(options: readonly string[] | undefined): DecisionOption[] | undefined {
  const distinct = [...new Map((options ?? []).map(o => [o.trim().toLowerCase(), o.trim()])).values()].filter(
    o => o !== '',
  );
  if (distinct.length < 2) return undefined;
  return distinct.slice(0, OPTION_LABELS.length).map((option, i) => ({ label: OPTION_LABELS[i]!, option }));
}

/** Fallbacks chosen by the user (settings) rather than by the model. */
export interface SelectionDefaults {
  /** Panel used when the model's reply is still malformed after repairs; without it that failure is thrown. */
  readonly personaIds?: readonly string[];
}

/** Input of {@link selectPersonas}. */
export interface SelectPersonasInput {
  readonly request: string;
  /** Context the user attached; the prompt carries only its gist. */
  readonly attached?: readonly AttachedItem[];
  /** The registry's personas. */
  readonly personas: readonly PersonaContract[];
  readonly model: LanguageModel;
  readonly token: CancellationSignal;
  readonly defaults?: SelectionDefaults;
}

function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function nonEmpty<T>(items: readonly T[]): items is readonly [T, ...T[]] {
  return items.length > 0;
}

function userOverride(personas: readonly PersonaContract[], unknownNames: readonly string[]): PersonaSelection {
  const names = personas.map(p => p.name);
  const unknown = unknownNames.length > 0 ? ` ${listOf(unknownNames.map(n => `"${n}"`))}: no such persona.` : '';
  const solo = personas.length === 1 ? ' With a single persona there is no debate, only its answer.' : '';
  return {
    // The user chose the panel, so the classification would only label it: not worth a model call
    // (latency, a consent prompt, quota) that could not change the outcome; record 'general'.
    classification: 'general',
    personas,
    reason: `You asked for ${listOf(names)}.${unknown}${solo}`,
    userOverride: true,
    overriddenPersonas: names,
  };
}

/** With MIN_PANEL or fewer personas there is nothing to choose; skip the model call for the same reason as above. */
function everyone(personas: readonly PersonaContract[]): PersonaSelection {
  const reason =
    personas.length === 1
      ? `Only one persona (${personas[0]?.name}) is available, so there is no debate, only its answer.`
      : `Only ${listOf(personas.map(p => p.name))} are available, so both take part.`;
  return { classification: 'general', personas, reason, userOverride: false, overriddenPersonas: [] };
}

function byIds(personas: readonly PersonaContract[], ids: readonly string[]): PersonaContract[] {
  return [...new Set(ids)].flatMap(id => personas.filter(p => p.id === id));
}

/**
 * The council when no model call can change it: the personas the user named (see explicitPersonaNames),
 * or everyone when MIN_PANEL or fewer are available; undefined when the model must choose.
 * Throws an Error when no persona is available at all.
 */
export function selectionWithoutModel(
  request: string,
  personas: readonly PersonaContract[],
): PersonaSelection | undefined {
  if (personas.length === 0)
    throw new ActionableError(
      'No council personas are available: fix the persona files named in the warnings above (or restore the built-in ones), then press Try again.',
    );
  const named = explicitPersonaNames(request, personas);
  if (named.personas.length > 0) return userOverride(named.personas, named.unknownNames);
  if (personas.length <= MIN_PANEL) return everyone(personas);
  return undefined;
}

/** The most personas the model may choose from `personas`. */
export function panelLimit(personas: readonly PersonaContract[]): number {
  return Math.min(MAX_PANEL, personas.length);
}

/** The selection a valid select_personas reply (or the selection part of a larger reply) stands for. */
export function selectionFromReply(
  personas: readonly PersonaContract[],
  reply: {
    readonly classification: PersonaSelection['classification'];
    readonly personaIds: readonly string[];
    readonly reason: string;
    readonly decisionOptions?: readonly string[];
    readonly outlook?: DebateOutlook;
  },
): PersonaSelection {
  const options = labelledOptions(reply.decisionOptions);
  return {
    classification: reply.classification,
    personas: byIds(personas, reply.personaIds),
    reason: reply.reason,
    ...(options ? { options } : {}),
    ...(reply.outlook ? { outlook: reply.outlook } : {}),
    userOverride: false,
    overriddenPersonas: [],
  };
}

/**
 * What a failed selection request leaves: the user's default personas when the reply stayed malformed
 * after the repairs; otherwise (a refusal, an outage, no usable defaults) `error` is rethrown.
 */
export function fallbackSelection(
  personas: readonly PersonaContract[],
  defaults: SelectionDefaults | undefined,
  error: unknown,
): PersonaSelection {
  const fallback = byIds(personas, defaults?.personaIds ?? []);
  if (!(error instanceof LanguageModelFailure && error.kind === 'malformedReply') || fallback.length === 0) throw error;
  return {
    classification: 'general',
    personas: fallback,
    reason: `The model did not choose a usable panel, so your default personas (${listOf(fallback.map(p => p.name))}) take part.`,
    userOverride: false,
    overriddenPersonas: [],
  };
}

/**
 * Chooses the council for a request. An explicit naming by the user (see explicitPersonaNames)
 * wins and costs no model call; otherwise the model classifies the request and picks 2–4 personas
 * by id (unknown ids are repaired by requestStructured). Throws CancelledError / LanguageModelFailure
 * from the model, and an Error when no persona is available at all.
 */
export async function selectPersonas(input: SelectPersonasInput): Promise<PersonaSelection> {
  const { request, personas, model, token, defaults } = input;
  const attached =
    input.attached && input.attached.length > 0 ? rebound(input.attached, SELECTION_ATTACHMENT_BUDGET) : undefined;
  throwIfCancelled(token);
  const preset = selectionWithoutModel(request, personas);
  if (preset) return preset;

  const ids = personas.map(p => p.id);
  if (!nonEmpty(ids)) return everyone(personas);

  const maxPersonas = panelLimit(personas);
  const shape = {
    schema: selectionReplySchema(ids, maxPersonas),
    name: 'select_personas',
    description: 'Classify the request and choose the council personas who should debate it.',
  };
  const { messages } = await renderMessages(
    SelectPersonasPrompt,
    { request, personas, minPersonas: MIN_PANEL, maxPersonas, ...(attached ? { attached } : {}) },
    model,
    token,
    { reply: shape },
  );
  try {
    const reply = await requestStructured(
      model,
      {
        ...shape,
        normalize: selectionNormalizer(personas),
        messages,
      },
      token,
    );
    return selectionFromReply(personas, reply);
  } catch (error) {
    return fallbackSelection(personas, defaults, error);
  }
}
