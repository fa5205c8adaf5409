import { z } from 'zod';

/*
 * The `council` command's config file (`.council/config.json`): which providers, which model each seat, the opening
 * and the answer use, dollar price overrides and limits. Keys never live here: a provider names the environment
 * variable its key is read from. This schema is the source of truth; `schemas/council-config.schema.json` is
 * generated from it (npm run schemas).
 */

/** Where the JSON Schema is published in the repository. */
export const CONFIG_SCHEMA_FILE = 'schemas/council-config.schema.json';

export const PROVIDER_TYPES = ['openai', 'anthropic', 'google', 'openai-compatible', 'copilot'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** An environment variable's name, never its value. */
const EnvironmentVariable = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, e.g. ANTHROPIC_API_KEY')
  .describe('The environment variable the key is read from (its name, never the key).');

export const ProviderConfig = z
  .object({
    type: z
      .enum(PROVIDER_TYPES)
      .describe(
        "The provider: openai, anthropic, google, openai-compatible, or copilot (Copilot's models through the user's logged-in Copilot CLI).",
      ),
    apiKeyEnv: EnvironmentVariable.optional().describe(
      "The environment variable holding the key; default the provider's usual one (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY). A local openai-compatible server needs none.",
    ),
    baseUrl: z
      .url()
      .optional()
      .describe(
        'The endpoint, e.g. http://localhost:11434/v1 (Ollama) or http://localhost:1234/v1 (LM Studio). Required for openai-compatible.',
      ),
    cliPath: z
      .string()
      .min(1)
      .optional()
      .describe('copilot only: the Copilot CLI executable; default COPILOT_CLI_PATH, else `copilot` on the PATH.'),
  })
  .strict();
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/** `provider:model` (split at the first colon, so `local:llama3.1:8b` is model `llama3.1:8b` on `local`). */
const ModelName = z.string().regex(/^[^:\s]+:\S+$/, 'must be "<provider>:<model id>", e.g. "claude:claude-sonnet-4-5"');

export const ModelReference = z.union([
  ModelName,
  z
    .object({
      provider: z.string().min(1).describe('A name from `providers`.'),
      model: z.string().min(1).describe('The model id as the provider names it.'),
      maxInputTokens: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('The prompt budget (context window); default 128000. Set it for small local models.'),
      toolCalling: z
        .boolean()
        .optional()
        .describe(
          "false: the model takes no tools, so Council asks for its structured replies through the provider's JSON mode (the same schemas). Default true; an endpoint that answers a request with tools by a 400 saying it takes none is switched to JSON mode for the rest of the session anyway.",
        ),
    })
    .strict(),
]);
export type ModelReference = z.infer<typeof ModelReference>;

/** US dollars per million tokens, or 0 for a free (local) model. */
const DollarPrice = z.union([
  z.literal(0),
  z
    .object({
      input: z.number().nonnegative().describe('US dollars per million input tokens.'),
      output: z.number().nonnegative().describe('US dollars per million output tokens.'),
    })
    .strict(),
]);

export const CouncilConfig = z
  .object({
    $schema: z.string().optional(),
    providers: z
      .record(z.string().regex(/^[^:\s]+$/, 'a provider name has no colon or space'), ProviderConfig)
      .describe('The providers by the name models refer to them with.'),
    models: z
      .object({
        default: ModelReference.describe('The model of every seat and step not named below.'),
        opening: ModelReference.optional().describe(
          'Choosing the council and asking the clarifying questions; default `default`.',
        ),
        answer: ModelReference.optional().describe('The consolidated answer; default `default`.'),
        seats: z
          .record(z.string(), ModelReference)
          .optional()
          .describe('A model per persona id (the persona file name without .md, e.g. security-expert).'),
      })
      .strict(),
    prices: z
      .record(z.string(), DollarPrice)
      .optional()
      .describe(
        'Dollar prices per million tokens by model id (a dated snapshot of it matches too), over the built-in table.',
      ),
    limits: z
      .object({
        maxDollars: z.number().positive().optional().describe('The most one session may spend, in US dollars.'),
        maxRequests: z.number().int().positive().optional().describe('The most model requests one session may make.'),
      })
      .strict()
      .optional(),
  })
  .strict();
export type CouncilConfig = z.infer<typeof CouncilConfig>;

/** The JSON Schema text published at CONFIG_SCHEMA_FILE. */
export function configJsonSchemaText(): string {
  const schema = z.toJSONSchema(CouncilConfig, { io: 'input' });
  return `${JSON.stringify({ ...schema, title: 'Council command configuration (.council/config.json)' }, null, 2)}\n`;
}
