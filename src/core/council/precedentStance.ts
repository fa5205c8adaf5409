import type { EarlierDecision } from '../session/precedent';
import type { SessionSnapshot } from '../session/machine';
import { councilSeatNames, debateRecords } from './sessionFacts';

/** Where the council stands on one earlier decision record it was given. */
export interface PrecedentStance {
  readonly record: EarlierDecision;
  /** Most of the council's last positions go against it. */
  readonly against: boolean;
  /** The personas whose last position goes against it. */
  readonly opposedBy: readonly string[];
}

/**
 * The council's stance on each record of the session's precedent, from what each persona last said (its structured
 * `againstRecords`): against when more than half of the personas who spoke go against it. Empty without precedent.
 */
export function precedentStances(snapshot: SessionSnapshot): PrecedentStance[] {
  const records = snapshot.context.precedent?.records ?? [];
  if (records.length === 0) return [];
  const last = new Map<string, readonly string[]>();
  for (const cycle of debateRecords(snapshot))
    for (const c of cycle.contributions) last.set(c.persona, c.againstRecords ?? []);
  const spoke = councilSeatNames(snapshot).filter(name => last.has(name));
  return records.map(record => {
    const opposedBy = spoke.filter(name => last.get(name)?.includes(String(record.number)));
    return { record, against: spoke.length > 0 && opposedBy.length * 2 > spoke.length, opposedBy };
  });
}

/** The accepted record the council's decision goes against (the first, if several): the one a new record supersedes. */
export function supersededRecord(snapshot: SessionSnapshot): EarlierDecision | undefined {
  return precedentStances(snapshot).find(s => s.against && s.record.status === 'accepted')?.record;
}

/** "3. Use PostgreSQL (accepted): the council goes against it (Ana, Bo)" for each record, for the answer. */
export function precedentStanceText(snapshot: SessionSnapshot): string {
  return precedentStances(snapshot)
    .map(({ record, against, opposedBy }) => {
      const head = `${record.number}. ${record.title} (${record.status})`;
      if (against)
        return `${head}: the council goes against it (${opposedBy.join(', ')})${record.status === 'accepted' ? ' — an accepted record; recording this decision would supersede it' : ''}`;
      return `${head}: ${opposedBy.length === 0 ? 'the council agrees with it' : `most agree; ${opposedBy.join(', ')} would go against it`}`;
    })
    .join('; ');
}
