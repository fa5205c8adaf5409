import * as vscode from 'vscode';
import {
  attachmentKey,
  boundAttachments,
  DEFAULT_ATTACHMENT_BUDGET,
  type RawAttachment,
} from '../../core/session/attachedContext';
import type { AttachedItem } from '../../core/session/attachedItem';
import { untrusted } from '../../core/council/wording/markdown';
import { readCouncilMetadata } from './councilResult';

/** Files larger than this are named, not read: reading them would only be cut away. */
const MAX_READ_BYTES = 2_000_000;

/** Bytes inspected for a NUL, the mark of a binary file. */
const BINARY_SNIFF_BYTES = 8_000;

/** A reference read from chat, with what the response cites for it. */
interface ReadReference {
  readonly raw: RawAttachment;
  readonly cite?: vscode.Uri | vscode.Location;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function pathLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

function outsideWorkspace(uri: vscode.Uri): boolean {
  return uri.scheme !== 'untitled' && vscode.workspace.getWorkspaceFolder(uri) === undefined;
}

/** The label a reference will carry, known before reading it, so items the session has are not read again. */
function referenceKey(ref: vscode.ChatPromptReference): string {
  const { value } = ref;
  if (value instanceof vscode.Uri) return attachmentKey({ kind: 'file', label: pathLabel(value) });
  if (value instanceof vscode.Location) return attachmentKey({ kind: locationKind(ref), label: locationLabel(value) });
  return attachmentKey({
    kind: 'text',
    label: typeof value === 'string' ? (ref.modelDescription ?? ref.id) : displayName(ref),
  });
}

/** VS Code gives symbols (`#sym`, the outline) a JSON id of their location; selections get other ids. */
function locationKind(ref: vscode.ChatPromptReference): 'symbol' | 'selection' {
  return /symbol/i.test(ref.id) || ref.id.startsWith('{"uri"') ? 'symbol' : 'selection';
}

/** The display name VS Code sends with every reference at runtime (not yet in the stable typings). */
function displayName(ref: vscode.ChatPromptReference): string {
  const name: unknown = (ref as { readonly name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : ref.id;
}

/** The whole lines a range covers: one ending at the start of a line (a selection of full lines) stops before it. */
function coveredLines(range: vscode.Range): { readonly first: number; readonly last: number } {
  const { start, end } = range;
  return { first: start.line, last: end.line > start.line && end.character === 0 ? end.line - 1 : end.line };
}

function locationLabel(location: vscode.Location): string {
  const { first, last } = coveredLines(location.range);
  return `${pathLabel(location.uri)}:${first + 1}${last > first ? `-${last + 1}` : ''}`;
}

/** An editor's text when the file is open (it may hold unsaved changes), else the file's bytes as text or binary. */
async function readFile(uri: vscode.Uri): Promise<Pick<RawAttachment, 'text' | 'binary' | 'unreadable'>> {
  const open = vscode.workspace.textDocuments.find(doc => doc.uri.toString() === uri.toString());
  if (open) return { text: open.getText() };
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) return { unreadable: 'it is a folder; attach the files in it instead' };
  if (stat.size > MAX_READ_BYTES)
    return { unreadable: `it is ${stat.size} bytes, more than the ${MAX_READ_BYTES} bytes Council reads` };
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { binary: true };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { binary: true };
  }
}

/** The lines a selection or symbol covers, whole, from the document as the editor has it. */
async function readLocation(location: vscode.Location): Promise<string> {
  const document = await vscode.workspace.openTextDocument(location.uri);
  const { first, last } = coveredLines(location.range);
  const lastLine = Math.min(last, document.lineCount - 1);
  const range = new vscode.Range(first, 0, lastLine, document.lineAt(lastLine).text.length);
  return document.getText(range);
}

async function readReference(ref: vscode.ChatPromptReference): Promise<ReadReference> {
  const { value } = ref;
  if (typeof value === 'string') return { raw: { label: ref.modelDescription ?? ref.id, kind: 'text', text: value } };
  if (value instanceof vscode.Uri) {
    const base = { label: pathLabel(value), kind: 'file' as const, outsideWorkspace: outsideWorkspace(value) };
    try {
      return { raw: { ...base, ...(await readFile(value)) }, cite: value };
    } catch (error) {
      return { raw: { ...base, unreadable: errorText(error) }, cite: value };
    }
  }
  if (value instanceof vscode.Location) {
    const base = {
      label: locationLabel(value),
      kind: locationKind(ref),
      outsideWorkspace: outsideWorkspace(value.uri),
    };
    try {
      return { raw: { ...base, text: await readLocation(value) }, cite: value };
    } catch (error) {
      return { raw: { ...base, unreadable: errorText(error) }, cite: value };
    }
  }
  // Images, diagnostics and whatever chat adds next: named, so the user sees they were not used.
  return {
    raw: {
      label: displayName(ref),
      kind: 'text',
      unreadable: 'a kind of attachment Council cannot read (such as an image); named only',
    },
  };
}

/** Runs a tool the user named with `#`; VS Code shows the tool's own confirmation when it needs one. A failure is a note. */
async function runToolReference(
  name: string,
  request: vscode.ChatRequest,
  token: vscode.CancellationToken,
): Promise<RawAttachment> {
  const label = `#${name}`;
  try {
    const result = await vscode.lm.invokeTool(
      name,
      { input: {}, toolInvocationToken: request.toolInvocationToken },
      token,
    );
    const text = result.content
      .flatMap(part => (part instanceof vscode.LanguageModelTextPart ? [part.value] : []))
      .join('\n');
    return text.trim() === ''
      ? { label, kind: 'tool', unreadable: 'the tool returned no text' }
      : { label, kind: 'tool', text };
  } catch (error) {
    return { label, kind: 'tool', unreadable: `the tool failed: ${errorText(error)}` };
  }
}

/** References of the earlier requests of session `sessionId` in this chat thread. */
function sessionHistoryReferences(
  history: vscode.ChatContext['history'],
  participantId: string,
  sessionId: string,
): vscode.ChatPromptReference[] {
  return history.flatMap((turn, index) => {
    const reply = history[index + 1];
    if (
      !(turn instanceof vscode.ChatRequestTurn) ||
      !(reply instanceof vscode.ChatResponseTurn) ||
      reply.participant !== participantId
    )
      return [];
    return readCouncilMetadata(reply.result)?.sessionId === sessionId ? [...turn.references] : [];
  });
}

/**
 * What VS Code attaches to every request for agents, not what the user attached: the index of the chat
 * customizations (agents and skills, Council's own among them; VS Code 1.139+). It is not context for a council and
 * would be paid for in every prompt.
 */
const AGENT_ONLY_REFERENCES = new Set(['vscode.customizations.index']);

/** The session a request continues, as far as attached context is concerned. */
export interface AttachedSession {
  readonly sessionId: string;
  /** What the session already carries. */
  readonly attached: readonly AttachedItem[];
}

/**
 * The context attached to `request` (files, selections, symbols, plain values, `#tool` results) and to the earlier
 * requests of `session` in this thread, bounded for the prompts; items the session already carries are not read
 * again and not returned. Everything cited is listed in the response (`stream.reference`). Never throws for a
 * reference: an unreadable file or a failing tool becomes a note.
 */
export async function attachedContext(
  request: vscode.ChatRequest,
  history: vscode.ChatContext['history'],
  participantId: string,
  session: AttachedSession | undefined,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<AttachedItem[]> {
  const references = [
    ...request.references,
    ...(session ? sessionHistoryReferences(history, participantId, session.sessionId) : []),
  ].filter(ref => !AGENT_ONLY_REFERENCES.has(ref.id));
  const known = new Set((session?.attached ?? []).map(attachmentKey));
  const raw: RawAttachment[] = [];
  for (const ref of references) {
    const key = referenceKey(ref);
    const isNew = !known.has(key);
    known.add(key);
    const read = isNew ? await readReference(ref) : undefined;
    if (read) raw.push(read.raw);
    const cite =
      read?.cite ?? (ref.value instanceof vscode.Uri || ref.value instanceof vscode.Location ? ref.value : undefined);
    if (cite && request.references.includes(ref)) stream.reference(cite);
  }
  for (const tool of request.toolReferences) raw.push(await runToolReference(tool.name, request, token));
  const used = (session?.attached ?? []).reduce((sum, item) => sum + (item.content?.length ?? 0), 0);
  const items = boundAttachments(raw, {
    ...DEFAULT_ATTACHMENT_BUDGET,
    totalChars: Math.max(0, DEFAULT_ATTACHMENT_BUDGET.totalChars - used),
  });
  // The user should know what the council did not see whole, not only the model.
  const notes = items
    .filter(item => item.note)
    .map(item => `- \`${item.label.replace(/`/g, "'")}\`: ${untrusted(item.note ?? '').replace(/\n/g, ' ')}`);
  if (notes.length > 0) stream.markdown(`_Attached context:_\n${notes.join('\n')}\n\n`);
  return items;
}
