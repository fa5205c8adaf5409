import { z } from 'zod';

/** What kind of request a persona is relevant to; the selection step classifies each request as one of these. */
export const REQUEST_CLASSIFICATIONS = [
  'architecture',
  'security',
  'implementation',
  'performance',
  'testing',
  'product',
  'operations',
  'data',
  'ux',
  'workflow',
  'general',
] as const;

/** A request classification (spec 004 PersonaSelection.requestClassification). */
export const RequestClassificationSchema = z.enum(REQUEST_CLASSIFICATIONS);
export type RequestClassification = z.infer<typeof RequestClassificationSchema>;

/** `divergent` personas widen the option space (challenge, alternatives); `convergent` ones narrow it to a decision. */
const CognitiveModeSchema = z.enum(['divergent', 'convergent']);
export type CognitiveMode = z.infer<typeof CognitiveModeSchema>;

/** Kebab-case persona id, e.g. `security-expert`; the key workspace overrides match on. */
export const PersonaIdSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'expected a kebab-case id such as "security-expert"' });

const text = z.string().trim().min(1);

/** A model as settings and persona files name it: `vendor/family`, a family (`gpt-4.1`) or a model id. */
const ModelSelectorSchema = z
  .string()
  .trim()
  .regex(/^[\w.:-]+(?:\/[\w.:-]+)?$/, {
    error:
      'expected a model family such as "gpt-4.1", a "vendor/family" such as "copilot/claude-sonnet-4", or a model id',
  });

/**
 * The YAML front matter of a persona file. Strict: an unknown key is almost always a typo
 * (`relevant_to`), and silently ignoring it would drop the author's intent.
 */
export const PersonaFrontMatterSchema = z.strictObject({
  id: PersonaIdSchema,
  /** Display name, e.g. "Senior Developer"; participants in a session carry this name. */
  name: text,
  /** One sentence: what this persona is responsible for in a debate. */
  role: text,
  expertise: z.array(text).min(1).readonly(),
  relevantTo: z.array(RequestClassificationSchema).min(1).readonly(),
  tone: text,
  cognitiveMode: CognitiveModeSchema,
  /** Other names a user might type to ask for this persona, e.g. "security", "sec expert". */
  aliases: z.array(text).readonly().optional(),
  /**
   * The model this persona prefers to speak on, or several in order (the first available one is used); when none is
   * available it speaks on `council.models.personas` or the chat's model, with a note.
   */
  model: z.union([ModelSelectorSchema, z.array(ModelSelectorSchema).min(1).readonly()]).optional(),
});
export type PersonaFrontMatter = Readonly<z.infer<typeof PersonaFrontMatterSchema>>;

/** A persona file's full content: front matter plus the markdown body as `instructions`. */
export const PersonaDefinitionSchema = PersonaFrontMatterSchema.extend({
  /** The markdown body: how this persona thinks and argues; goes verbatim into its prompts. */
  instructions: text,
});
export type PersonaDefinition = Readonly<z.infer<typeof PersonaDefinitionSchema>>;

/** Where a loaded persona came from: the extension's `personas/` folder or the workspace's override folder. */
export const PersonaOriginSchema = z.enum(['builtIn', 'workspace']);
export type PersonaOrigin = z.infer<typeof PersonaOriginSchema>;

/** A persona as the registry hands it out: its definition plus where it was loaded from. */
export const PersonaContractSchema = PersonaDefinitionSchema.extend({
  origin: PersonaOriginSchema,
  /** The file it was parsed from, for problem reports and "overridden by" notes. */
  path: z.string(),
});
export type PersonaContract = Readonly<z.infer<typeof PersonaContractSchema>>;

/** The models a persona prefers, most wanted first (empty: none). */
export function preferredModels(persona: Pick<PersonaFrontMatter, 'model'>): readonly string[] {
  return persona.model === undefined ? [] : typeof persona.model === 'string' ? [persona.model] : persona.model;
}
