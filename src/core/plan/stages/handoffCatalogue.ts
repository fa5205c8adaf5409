/** The layers of spec 003 §6.1, by the prefix of their codes. */
const LAYERS = { SCH: 'schema', SEM: 'semantic', CON: 'constitutional', REF: 'cross-reference' } as const;
type Layer = (typeof LAYERS)[keyof typeof LAYERS];
/** The four layers in spec 003's order. */
export const HANDOFF_LAYERS: readonly Layer[] = Object.values(LAYERS);

interface HandoffRule {
  readonly severity: 'error' | 'warning';
  /** What holds when the rule holds (the finding's `expected`). */
  readonly expected: string;
  readonly remediation: string;
}

/**
 * The one catalogue of the handoff checks (spec 003 §6.3, with the rules that fit this pipeline): every finding's
 * code, severity, expectation and remediation come from here. Errors are told in the stage summary; warnings are
 * recorded. A schema error stops the stage (Try again), the others never stop the run.
 */
export const HANDOFF_RULES = {
  'SCH-001': {
    severity: 'error',
    expected: 'The record matches its payload schema',
    remediation: 'Try again; if it recurs, report it: Council built this record wrongly',
  },
  'SEM-001': {
    severity: 'warning',
    expected: 'A discovery report cites at least one file',
    remediation: 'Review the report: it found nothing in its area',
  },
  'SEM-002': {
    severity: 'warning',
    expected: 'A confidence of at least 0.3',
    remediation: 'Review analysis quality: the agent doubts this tag',
  },
  'SEM-005': {
    severity: 'error',
    expected: 'A proposal creates only files that do not exist',
    remediation: 'Use kind "modify" for an existing file',
  },
  'CON-001': {
    severity: 'error',
    expected: "A proposal writes only the user's files, never Council's run folder or version-control internals",
    remediation: 'Drop the change: Council writes its own state itself, and .git is not a workspace file',
  },
  'REF-001': {
    severity: 'warning',
    expected: 'A cited file exists in the workspace',
    remediation: 'Verify the path',
  },
} as const satisfies Record<string, HandoffRule>;
export type HandoffCode = keyof typeof HANDOFF_RULES;

/** `schema` for `SCH-001`. */
export function layerOf(code: string): Layer | undefined {
  return LAYERS[code.slice(0, 3) as keyof typeof LAYERS];
}
