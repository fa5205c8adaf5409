import { UserMessage } from '@vscode/prompt-tsx';

/** Below the request and clarifications, above the debate record: bounded already, so it is kept or dropped whole. */
const PRECEDENT_PRIORITY = 700;

/**
 * The team's earlier decision records as their own message (each record fenced as untrusted data, the whole bounded
 * when the session found them); nothing when the session has none.
 */
export function precedentMessage(precedent: string | undefined): unknown {
  if (!precedent) return undefined;
  return <UserMessage priority={PRECEDENT_PRIORITY}>{precedent}</UserMessage>;
}
