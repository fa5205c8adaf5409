import { transition } from 'xstate';
import type { AttachedItem } from '../session/attachedItem';
import type { SessionEvent } from '../session/events';
import { sessionMachine, type SessionSnapshot } from '../session/machine';
import { mergeAttachments } from '../session/attachedContext';
import { explainRejection } from '../session/rejection';
import { replaySession, restoreSession } from '../session/replay';
import { storeSession } from '../session/storedSession';
import type { StoredSession } from '../session/storedSession';
import type { SessionInputInit } from '../session/context';
import type { SessionPrecedent } from '../session/precedent';
import { SpendingLedger, type SpendTotals } from '../llm/spending/ledger';

/** Records an event in a session (and persists it), for the steps of a turn. */
export type Recorder = (event: SessionEvent) => Promise<void>;

/** An event the session refused; `message` says why in the user's terms. */
export class SessionRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SessionRuleError';
  }
}

/**
 * A council session as its event log: the log is the source of truth (stored, replayed),
 * the snapshot is derived from it and advanced one accepted event at a time.
 */
export class SessionLog {
  private constructor(
    private input: SessionInputInit,
    private readonly events: SessionEvent[],
    private current: SessionSnapshot,
    /** Every request the session paid for; stored with it. */
    readonly ledger = new SpendingLedger(),
    /** Requests counted by stores older than the ledger (they have no tokens). */
    private readonly requestsBeforeLedger = 0,
  ) {}

  /** A new session with an empty log. */
  static start(input: SessionInputInit): SessionLog {
    return new SessionLog(input, [], replaySession(input, []));
  }

  /** A session rebuilt from storage; throws SessionRuleError when the stored data is unusable. */
  static restore(stored: unknown): SessionLog {
    const restored = restoreSession(stored);
    if (!restored.ok) throw new SessionRuleError(restored.error);
    const { input, events, requestsUsed = 0, spending = [] } = restored.stored;
    const ledger = new SpendingLedger(spending);
    return new SessionLog(input, [...events], restored.snapshot, ledger, requestsUsed - ledger.totals().requests);
  }

  get snapshot(): SessionSnapshot {
    return this.current;
  }

  get state(): SessionSnapshot['value'] {
    return this.current.value;
  }

  get sessionId(): string {
    return this.current.context.sessionId;
  }

  get stored(): StoredSession {
    return storeSession(this.input, this.events, this.requestsUsed, this.ledger.entries);
  }

  /** What this session has spent over all its turns (repairs and failed requests included). */
  get spent(): SpendTotals {
    const totals = this.ledger.totals();
    return { ...totals, requests: totals.requests + Math.max(0, this.requestsBeforeLedger) };
  }

  /** Model requests this session has spent over all its turns (repairs and failed requests included). */
  get requestsUsed(): number {
    return this.spent.requests;
  }

  /** The context attached to the session's requests so far. */
  get attached(): readonly AttachedItem[] {
    return this.input.attached ?? [];
  }

  /**
   * Adds context attached on a later turn to the session's input (items it already has are kept as the council
   * saw them); returns how many were new. The snapshot is rebuilt, so the next prompt carries them.
   */
  attach(items: readonly AttachedItem[]): number {
    const merged = mergeAttachments(this.attached, items);
    const added = merged.length - this.attached.length;
    if (added > 0) {
      this.input = { ...this.input, attached: merged };
      this.current = replaySession(this.input, this.events);
    }
    return added;
  }

  /** Stores the earlier decisions found for the request; the snapshot is rebuilt, so the next prompt carries them. */
  setPrecedent(precedent: SessionPrecedent): void {
    this.input = { ...this.input, precedent };
    this.current = replaySession(this.input, this.events);
  }

  /** Records `event`; a refused event throws SessionRuleError and leaves the log unchanged. */
  apply(event: SessionEvent): void {
    const reason = explainRejection(this.current, event);
    if (reason !== undefined) throw new SessionRuleError(reason);
    this.current = transition(sessionMachine, this.current, event)[0];
    this.events.push(event);
  }
}
