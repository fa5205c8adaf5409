import { parseArgs } from 'node:util';
import type { LanguageModel } from '../../core/llm/languageModel';
import { builtInPersonas } from '../builtInPersonas';
import { serveMcp } from '../mcp/serveMcp';
import { commandModel, commandSpending } from './councilParts';

/** `council mcp`: serves Council's tools over stdio until the client closes stdin. */
export async function mcp(args: readonly string[], project: string, model?: LanguageModel): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { model: { type: 'string' }, demo: { type: 'boolean' } },
  });
  const configured =
    model ??
    (values.demo === true || process.env.OPENAI_API_KEY?.trim()
      ? commandModel({ demo: values.demo === true, ...(values.model ? { model: values.model } : {}) })
      : undefined);
  await serveMcp({
    project,
    ...(configured ? { model: configured } : {}),
    noModelHelp:
      "Configure one: set OPENAI_API_KEY (and OPENAI_BASE_URL for any OpenAI-compatible endpoint, e.g. Ollama or LM Studio) in the server's environment, and --model <id>; or start the server with --demo for the scripted demo council. A client that offers MCP sampling lends its own model instead.",
    personas: await builtInPersonas(),
    spending: commandSpending(),
  });
  return 0;
}
