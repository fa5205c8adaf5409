import * as vscode from 'vscode';
import { COUNCIL_SECTION, SETTING } from '../settings';
import type { DecisionInput } from '../../core/decisions/decisionInput';
import { isRecord, parseRecord } from '../../core/decisions/decisionRecord';
import { readCatalog } from '../../core/decisions/recordCatalog';
import { findRecordFolder } from '../../core/decisions/recordFolder';
import { nextRecordName } from '../../core/decisions/recordNaming';
import { renderRecord, titleFor } from '../../core/decisions/renderRecord';
import { markSuperseded } from '../../core/decisions/supersede';
import { VsCodeWorkspaceReader } from '../workspace/vscodeWorkspaceReader';
import { exists } from '../workspace/workspaceFiles';
import { resolveWorkspacePath } from '../workspace/workspacePaths';

/** What `council.recordDecision` takes: the decision, and optionally the accepted record it supersedes. */
export interface RecordDecisionArgs {
  readonly decision: DecisionInput;
  /** Workspace-relative path of an accepted record this decision goes against. */
  readonly supersedes?: string;
  /** Tests pass the answer to the modal instead of clicking it; the chat button never does. */
  readonly confirmed?: boolean;
  /** Date to stamp (tests); today otherwise. */
  readonly date?: string;
}

/** What the command did. */
export interface RecordDecisionResult {
  readonly written: boolean;
  readonly path?: string;
  readonly message: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function confirm(path: string, supersedes: string | undefined): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `Write the decision record ${path}?`,
    {
      modal: true,
      detail: `The draft is open beside the chat; review it first. Status "proposed": the team accepts it in review.${supersedes ? `\n\n${supersedes} will be marked superseded by it.` : ''}`,
    },
    'Write Record',
  );
  return choice === 'Write Record';
}

/**
 * Writes one decision record in the team's folder and format, after the user has seen the draft (opened as an
 * untitled document) and confirmed in a modal. Never overwrites: a name that exists by the time of writing refuses.
 */
export async function recordDecision(args: RecordDecisionArgs): Promise<RecordDecisionResult> {
  const done = (written: boolean, message: string, path?: string): RecordDecisionResult => {
    void (written ? vscode.window.showInformationMessage(message) : vscode.window.showWarningMessage(message));
    return { written, message, ...(path ? { path } : {}) };
  };
  if (!vscode.workspace.isTrusted)
    return done(false, 'Council does not write files in an untrusted workspace. Trust the workspace first.');
  const reader = new VsCodeWorkspaceReader();
  const setting = vscode.workspace.getConfiguration(COUNCIL_SECTION).get<string>(SETTING.decisionsFolder);
  const folder = await findRecordFolder(reader, setting);
  const catalog = await readCatalog(reader, folder.folder);
  const title = titleFor(args.decision);
  const { number, name } = nextRecordName(catalog.names, title);
  const path = `${folder.folder}/${name}`;
  const target = resolveWorkspacePath(path);
  const directory = resolveWorkspacePath(folder.folder);
  if (!target || !directory) return done(false, `Council cannot write ${path}: open the workspace folder first.`);

  const old = args.supersedes ? catalog.records.find(r => r.path === args.supersedes) : undefined;
  if (args.supersedes && !old) return done(false, `There is no record ${args.supersedes} to supersede.`);
  const text = renderRecord({
    number,
    title,
    date: args.date ?? new Date().toISOString().slice(0, 10),
    format: folder.format,
    decision: args.decision,
    ...(old
      ? { supersedes: { number: old.number, title: old.title, name: old.path.slice(old.path.lastIndexOf('/') + 1) } }
      : {}),
  });
  const draft = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
  await vscode.window.showTextDocument(draft, { preview: true, viewColumn: vscode.ViewColumn.Beside });

  const confirmed = args.confirmed ?? (await confirm(path, old?.path));
  if (!confirmed) return done(false, `Nothing written: the record ${path} was not confirmed.`);
  if (await exists(target))
    return done(false, `Nothing written: ${path} exists, and Council never overwrites a record.`);

  let oldText: string | undefined;
  const oldUri = old ? resolveWorkspacePath(old.path) : undefined;
  if (old && oldUri) {
    const current = decoder.decode(await vscode.workspace.fs.readFile(oldUri));
    const parsed = parseRecord(old.path, current);
    oldText = isRecord(parsed) ? markSuperseded(current, folder.format, number, title, name) : undefined;
    if (oldText === undefined)
      return done(false, `Nothing written: ${old.path} has no status Council can mark superseded.`);
  }
  await vscode.workspace.fs.createDirectory(directory);
  await vscode.workspace.fs.writeFile(target, encoder.encode(text));
  if (oldUri && oldText !== undefined) await vscode.workspace.fs.writeFile(oldUri, encoder.encode(oldText));
  await vscode.window.showTextDocument(target);
  return done(
    true,
    `Wrote ${path} (status proposed)${old ? `; ${old.path} now reads superseded` : ''}. Propose it in a pull request.`,
    path,
  );
}
