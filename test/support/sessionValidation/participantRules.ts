import { issueAt, type SessionRule, type ValidationIssue } from './issues';

/** Spec "Participant" and "PersonaSelection" validation, and "Persona Contract Compliance". */
export const participantRules: SessionRule = (session, { personaNames }) => {
  const issues: ValidationIssue[] = [];
  const users = session.participants.filter(p => p.type === 'user');
  if (users.length > 1) issues.push(issueAt(['participants'], 'a session has at most one user participant'));

  const personaIds = new Set(session.participants.filter(p => p.type === 'persona').map(p => p.participantId));
  const seated = session.selection !== undefined || !['created', 'cancelled'].includes(session.status);
  if (seated && personaIds.size === 0) issues.push(issueAt(['participants'], 'the council needs at least one persona'));

  session.participants.forEach((p, index) => {
    if (p.type === 'persona' && !personaNames.has(p.name)) {
      issues.push(issueAt(['participants', index, 'name'], `"${p.name}" is not a council persona`));
    }
  });

  const selection = session.selection;
  if (selection === undefined) return issues;
  const selected = new Set<string>();
  selection.selectedPersonaIds.forEach((id, index) => {
    if (!personaIds.has(id))
      issues.push(issueAt(['selection', 'selectedPersonaIds', index], `"${id}" is not a persona of this session`));
    if (selected.has(id)) issues.push(issueAt(['selection', 'selectedPersonaIds', index], `"${id}" is selected twice`));
    selected.add(id);
  });
  if (selection.userOverride) {
    selection.overriddenPersonas.forEach((name, index) => {
      if (!personaNames.has(name))
        issues.push(issueAt(['selection', 'overriddenPersonas', index], `"${name}" is not a council persona`));
    });
  }
  return issues;
};
