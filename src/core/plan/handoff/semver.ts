/** A parsed semantic version (`major.minor.patch`, no pre-release tags: contracts only need the three numbers). */
export interface SemVer {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** A versioned payload schema name, e.g. `discovery-report@1.0.0`. */
export interface SchemaRef {
  readonly name: string;
  readonly version: SemVer;
}

/** `major.minor.patch` with no leading zeros. */
const SEMVER_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** `name@major.minor.patch`; names are kebab-case so they read the same in prompts, logs and files. */
export const SCHEMA_REF_PATTERN = /^([a-z][a-z0-9]*(?:-[a-z0-9]+)*)@((?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*))$/;

/** Parses `1.2.3`; undefined when the text is not a plain semantic version. */
function parseSemVer(text: string): SemVer | undefined {
  const match = SEMVER_PATTERN.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

/** Parses `name@1.2.3`; undefined when malformed. */
export function parseSchemaRef(text: string): SchemaRef | undefined {
  const match = SCHEMA_REF_PATTERN.exec(text);
  const version = match?.[2] === undefined ? undefined : parseSemVer(match[2]);
  if (!match?.[1] || !version) return undefined;
  return { name: match[1], version };
}
