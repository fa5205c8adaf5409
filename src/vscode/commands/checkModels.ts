import * as vscode from 'vscode';
import { z } from 'zod';
import { openingReplySchema } from '../../core/council/opening';
import {
  checkModel,
  forecastModelCheck,
  modelCheckForecastText,
  modelCheckReport,
  onePerFamily,
  type ModelCheckProbe,
  type ModelCheckResult,
} from '../../core/llm/modelCheck';
import { CancelledError } from '../../core/llm/languageModel';
import { PriceBook } from '../../core/llm/spending/prices';
import { jsonSchemaOf, replyInFullShape } from '../../core/llm/structuredOutput';
import { routingSchemaFor } from '../../core/plan/contextManager/routing';
import { describeIssues } from '../../core/zodIssues';
import { adaptLanguageModel } from '../languageModel/languageModelAdapter';
import { readCouncilSettings } from '../settings';

/** The palette command (package.json `contributes.commands`). */
const CHECK_MODELS_COMMAND = 'council.checkModels';

/** Test-only arguments: skip the confirmation, and check only one vendor's models. */
interface CheckModelsArgs {
  readonly confirmed?: boolean;
  readonly vendor?: string;
}

/**
 * The probe: Council's largest council reply (the opening: persona ids and classification enums, questions with
 * their ambiguity enum) and a /plan routing decision (an anyOf union with one-value enums, id lists), sent as
 * Council sends them, in one required tool.
 */
function councilProbe(): ModelCheckProbe {
  const schema = z.object({
    opening: openingReplySchema(['software-architect', 'security-expert', 'qa-engineer'], 3),
    routing: routingSchemaFor(['discovery-agent', 'planning-agent'], new Set(['item-1', 'item-2', 'item-3'])),
  });
  return {
    name: 'council_model_check',
    description: 'Fill in an example of the replies Council asks models for.',
    inputSchema: jsonSchemaOf(schema),
    prompt: [
      'Council (a VS Code extension) is checking that this model accepts the tool schemas it sends.',
      'Fill in the tool input for this example: a user asked "Should our HTTP client retry failed requests, and how often?";',
      'pick the personas for it and at most one clarifying question, and a routing decision for a run whose discovery agent',
      'keeps repeating itself (history items item-1 to item-3). Keep every text to one short sentence.',
    ].join(' '),
    validate: input => {
      const data = replyInFullShape(schema, input, 'shape', () => undefined);
      const parsed = schema.safeParse(data);
      return parsed.success ? [] : describeIssues(parsed.error.issues, '(root)', { schema, data });
    },
  };
}

/** Opens `markdown` in an untitled editor, so the user can save it or attach it to a bug report. */
async function openReport(markdown: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
  await vscode.window.showTextDocument(document, { preview: false });
}

/**
 * "Council: Check Models": lists the chat models (one per family), shows the forecast cost and asks to confirm,
 * then sends each family one request with Council's largest schemas as a required tool and opens the report.
 * Returns the report (or undefined when there was nothing to check or the user declined).
 */
async function checkModels(context: vscode.ExtensionContext, args: CheckModelsArgs = {}): Promise<string | undefined> {
  const listed = await vscode.lm.selectChatModels(args.vendor === undefined ? undefined : { vendor: args.vendor });
  const chats = onePerFamily(listed);
  if (chats.length === 0) {
    void vscode.window.showInformationMessage(
      'Council found no chat models. Sign in to GitHub Copilot (or install a language model provider), then run Council: Check Models again.',
    );
    return undefined;
  }
  const models = chats.map(adaptLanguageModel);
  const probe = councilProbe();
  const forecast = await forecastModelCheck(models, probe, new PriceBook(readCouncilSettings().spending.prices));
  if (!args.confirmed) {
    const send = 'Send';
    const answer = await vscode.window.showWarningMessage(
      `${modelCheckForecastText(forecast)} Families: ${chats.map(c => c.family).join(', ')}.`,
      {
        modal: true,
        detail: 'Each family gets one real request with Council’s largest reply schemas as a required tool.',
      },
      send,
    );
    if (answer !== send) return undefined;
  }
  const results = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Council: checking models', cancellable: true },
    async (progress, token) => {
      const done: ModelCheckResult[] = [];
      for (const model of models) {
        if (token.isCancellationRequested) break;
        progress.report({ message: model.family, increment: 100 / models.length });
        try {
          done.push(await checkModel(model, probe, token));
        } catch (error) {
          // Stop ends the check; the report shows the families checked so far.
          if (error instanceof CancelledError) break;
          throw error;
        }
      }
      return done;
    },
  );
  const report = modelCheckReport(results, {
    date: new Date().toISOString().slice(0, 10),
    councilVersion: String((context.extension.packageJSON as { version?: unknown }).version ?? 'unknown'),
    hostVersion: vscode.version,
    probe,
  });
  await openReport(report);
  return report;
}

/** Registers Council: Check Models. */
export function registerCheckModels(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.commands.registerCommand(CHECK_MODELS_COMMAND, (args?: CheckModelsArgs) => checkModels(context, args));
}
