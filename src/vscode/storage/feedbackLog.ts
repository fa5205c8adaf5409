/*
 * The log line for a thumbs up / down on a council or /plan response. No vscode import (unit-tested in
 * plain Node): the caller passes `ChatResultFeedback.kind` as 'helpful' | 'unhelpful' and the result's metadata.
 */

/** How the user rated a response (`vscode.ChatResultFeedbackKind` by name). */
export type FeedbackKind = 'helpful' | 'unhelpful';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && !/\s/.test(value) ? value : undefined;
}

/**
 * `feedback kind=helpful session=… state=…` for a council response, `… plan=… status=…` for a `/plan` run,
 * `… result=unknown` otherwise. Ids and states only: never the user's text.
 */
export function feedbackLine(kind: FeedbackKind, metadata: unknown): string {
  const m = (typeof metadata === 'object' && metadata !== null ? metadata : {}) as Record<string, unknown>;
  const fields: [string, string][] = [['kind', kind]];
  if (m.council !== undefined) {
    fields.push(['session', text(m.sessionId) ?? 'none']);
    if (text(m.state)) fields.push(['state', text(m.state) ?? '']);
  } else if (m.plan !== undefined) {
    fields.push(['plan', text(m.runId) ?? 'none']);
    if (text(m.status)) fields.push(['status', text(m.status) ?? '']);
  } else {
    fields.push(['result', 'unknown']);
  }
  return `feedback ${fields.map(([key, value]) => `${key}=${value}`).join(' ')}`;
}
