import type { PersonaContract, PersonaOrigin } from './contract';
import { parsePersonaFile, type PersonaParseResult } from './parse';

/** One persona file as a source lists it; `path` is what problem reports show. */
export interface PersonaFile {
  readonly path: string;
  readonly text: string;
  /** Set when the source could not read the file as text (too large, not UTF-8, unreadable): the sentence why. */
  readonly unreadable?: string;
}

/**
 * Where persona files come from. The VS Code adapter reads the extension's `personas/` folder and
 * the workspace's `.council/personas/` with `vscode.workspace.fs`; tests use in-memory or Node sources.
 * A missing folder should list as empty, not throw.
 */
export interface PersonaSource {
  list(): Promise<readonly PersonaFile[]>;
}

/** Something wrong with the persona files; the registry still loads every other persona. */
export type PersonaProblem =
  | {
      readonly kind: 'invalidFile';
      readonly origin: PersonaOrigin;
      readonly path: string;
      readonly field: string;
      readonly message: string;
    }
  | {
      readonly kind: 'duplicateId';
      readonly origin: PersonaOrigin;
      readonly path: string;
      readonly id: string;
      /** The file that defined the id first and is the one kept. */
      readonly keptPath: string;
      readonly message: string;
    }
  | { readonly kind: 'sourceUnavailable'; readonly origin: PersonaOrigin; readonly message: string };

/** The personas available to a session, and what was wrong while loading them. */
export interface PersonaRegistry {
  readonly personas: readonly PersonaContract[];
  readonly problems: readonly PersonaProblem[];
}

/** One file parsed; whatever it does to the parser is this file's problem, never the other files'. */
function parsed(file: PersonaFile): PersonaParseResult {
  try {
    return parsePersonaFile(file.path, file.text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: {
        path: file.path,
        field: 'frontMatter',
        message: `${file.path}: could not be read as a persona (${reason}).`,
      },
    };
  }
}

/** Parses one source; within it the first file with an id wins and later ones are reported. */
async function loadSource(source: PersonaSource, origin: PersonaOrigin): Promise<PersonaRegistry> {
  let files: readonly PersonaFile[];
  try {
    files = await source.list();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      personas: [],
      problems: [{ kind: 'sourceUnavailable', origin, message: `Could not read ${origin} personas: ${reason}` }],
    };
  }
  const byId = new Map<string, PersonaContract>();
  const problems: PersonaProblem[] = [];
  for (const file of files) {
    if (file.unreadable !== undefined) {
      problems.push({ kind: 'invalidFile', origin, path: file.path, field: 'file', message: file.unreadable });
      continue;
    }
    const result = parsed(file);
    if (!result.ok) {
      problems.push({ kind: 'invalidFile', origin, ...result.error });
      continue;
    }
    const kept = byId.get(result.persona.id);
    if (kept) {
      problems.push({
        kind: 'duplicateId',
        origin,
        path: file.path,
        id: kept.id,
        keptPath: kept.path,
        message: `${file.path}: field "id": "${kept.id}" is already defined by ${kept.path}; this file is ignored`,
      });
      continue;
    }
    byId.set(result.persona.id, { ...result.persona, origin, path: file.path });
  }
  return { personas: [...byId.values()], problems };
}

/**
 * Loads the built-in personas, then the workspace's: a workspace persona with a built-in's id
 * replaces it in place (`origin: 'workspace'`), new ids are appended. Malformed files and duplicate
 * ids are reported in `problems` and skipped; everything else still loads.
 */
export async function loadPersonas(sources: {
  readonly builtIn: PersonaSource;
  readonly workspace?: PersonaSource;
}): Promise<PersonaRegistry> {
  const builtIn = await loadSource(sources.builtIn, 'builtIn');
  const workspace = sources.workspace
    ? await loadSource(sources.workspace, 'workspace')
    : { personas: [], problems: [] };
  const overrides = new Map(workspace.personas.map(p => [p.id, p]));
  const merged = builtIn.personas.map(p => overrides.get(p.id) ?? p);
  const builtInIds = new Set(builtIn.personas.map(p => p.id));
  const added = workspace.personas.filter(p => !builtInIds.has(p.id));
  return { personas: [...merged, ...added], problems: [...builtIn.problems, ...workspace.problems] };
}
