import { parseArgs } from 'node:util';
import type { LanguageModel } from '../../core/llm/languageModel';
import { serveMcp } from '../mcp/serveMcp';
import { availableModels, MAX_REQUESTS_PER_RUN } from './councilParts';
import { NO_MODEL_HELP } from '../providers/environmentModel';
import { PriceBook } from '../../core/llm/spending/prices';

/** `council mcp`: serves Council's tools over stdio until the client closes stdin. */
export async function mcp(args: readonly string[], project: string, model?: LanguageModel): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { model: { type: 'string' }, demo: { type: 'boolean' } },
  });
  const { personas, models } = await availableModels({
    project,
    demo: values.demo === true,
    ...(values.model ? { modelFlag: values.model } : {}),
    ...(model ? { given: model } : {}),
  });
  await serveMcp({
    project,
    ...(models ? { model: models.model } : {}),
    ...(models?.roleModels ? { roleModels: models.roleModels } : {}),
    noModelHelp: `Configure one in the server's environment: ${NO_MODEL_HELP}; or start the server with --demo for the scripted demo council. A client that offers MCP sampling lends its own model instead.`,
    personas,
    spending: models?.spending() ?? { limits: { maxRequests: MAX_REQUESTS_PER_RUN }, prices: new PriceBook() },
  });
  return 0;
}
