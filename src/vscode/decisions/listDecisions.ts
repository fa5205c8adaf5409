import * as vscode from 'vscode';
import { COUNCIL_SECTION, SETTING } from '../settings';
import { readCatalog, type RecordCatalog } from '../../core/decisions/recordCatalog';
import { findRecordFolder, type RecordFolder } from '../../core/decisions/recordFolder';
import { VsCodeWorkspaceReader } from '../workspace/vscodeWorkspaceReader';
import { resolveWorkspacePath } from '../workspace/workspacePaths';

/** The team's records, as Council finds them. */
export async function findDecisions(): Promise<{ folder: RecordFolder; catalog: RecordCatalog }> {
  const reader = new VsCodeWorkspaceReader();
  const folder = await findRecordFolder(
    reader,
    vscode.workspace.getConfiguration(COUNCIL_SECTION).get<string>(SETTING.decisionsFolder),
  );
  return { folder, catalog: await readCatalog(reader, folder.folder) };
}

/** Lists the records with their status in a quick pick (opening the one picked); malformed files are named. */
export async function listDecisions(): Promise<{ folder: RecordFolder; catalog: RecordCatalog }> {
  const found = await findDecisions();
  const { folder, catalog } = found;
  for (const bad of catalog.malformed)
    void vscode.window.showWarningMessage(`Council skipped ${bad.path}: ${bad.reason}.`);
  if (catalog.records.length === 0) {
    void vscode.window.showInformationMessage(`No decision records in ${folder.folder}/ yet.`);
    return found;
  }
  const picked = await vscode.window.showQuickPick(
    catalog.records.map(r => ({
      label: `${r.number}. ${r.title}`,
      description: r.status,
      detail: r.path,
      path: r.path,
    })),
    { placeHolder: `Decision records in ${folder.folder}/ (${folder.format === 'madr' ? 'MADR' : 'Nygard'})` },
  );
  const uri = picked ? resolveWorkspacePath(picked.path) : undefined;
  if (uri) await vscode.window.showTextDocument(uri);
  return found;
}
