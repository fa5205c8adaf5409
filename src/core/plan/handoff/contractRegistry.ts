import type { z } from 'zod';
import type { PayloadContract, PayloadIssue, PayloadReference } from './payloadContract';
import { parseSchemaRef, type SchemaRef } from './semver';

/** A payload that passed its schema, with its later-layer checks bound to the parsed (typed) value. */
export interface ParsedPayload {
  readonly value: unknown;
  semanticIssues(): readonly PayloadIssue[];
  references(): readonly PayloadReference[];
}

/** The outcome of parsing a payload against its contract's schema. */
export type PayloadParse =
  | { readonly success: true; readonly parsed: ParsedPayload }
  | { readonly success: false; readonly issues: readonly z.core.$ZodIssue[] };

/** A contract as the registry holds it: typed rules closed over, so contracts of any payload type sit side by side. */
export interface RegisteredContract {
  readonly ref: SchemaRef;
  parse(payload: unknown): PayloadParse;
}

function erase<T>(contract: PayloadContract<T>, ref: SchemaRef): RegisteredContract {
  return {
    ref,
    parse(payload) {
      const result = contract.schema.safeParse(payload);
      if (!result.success) return { success: false, issues: result.error.issues };
      const value = result.data;
      return {
        success: true,
        parsed: {
          value,
          semanticIssues: () => contract.semantic?.(value) ?? [],
          references: () => contract.references?.(value) ?? [],
        },
      };
    },
  };
}

/** The payload contracts this build knows, one current version per schema name. */
export class PayloadContractRegistry {
  private readonly contracts = new Map<string, RegisteredContract>();

  /** Adds a contract; throws on a malformed `schemaRef` or a second version of the same name (one current version each). */
  register<T>(contract: PayloadContract<T>): this {
    const ref = parseSchemaRef(contract.schemaRef);
    if (!ref) throw new Error(`Malformed schemaRef "${contract.schemaRef}": expected name@major.minor.patch.`);
    if (this.contracts.has(ref.name)) throw new Error(`A contract named "${ref.name}" is already registered.`);
    this.contracts.set(ref.name, erase(contract, ref));
    return this;
  }

  /** The current contract for a schema name, if registered. */
  lookup(name: string): RegisteredContract | undefined {
    return this.contracts.get(name);
  }

  /** Registered schema names, sorted (for remediation messages). */
  names(): readonly string[] {
    return [...this.contracts.keys()].sort();
  }
}
