import { z } from 'zod';

/**
 * Version of the pipeline's payload schemas (semver). Bump the major on breaking changes so
 * handoff validation can reject or migrate old payloads; regenerate `schemas/` after any change.
 */
export const SCHEMA_VERSION = '1.1.0';

/** SemVer 2.0.0: `MAJOR.MINOR.PATCH` with optional pre-release and build parts. */
const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A semantic version string such as `1.0.0`. */
export const SemVer = z
  .string()
  .regex(SEMVER_PATTERN, { message: 'must be a semantic version such as 1.0.0' })
  .describe(`Semantic version of the payload schema; use "${SCHEMA_VERSION}".`);
