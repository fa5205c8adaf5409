import { z } from 'zod';
import { PayloadContractRegistry } from '../../../../../src/core/plan/handoff/contractRegistry';
import type { HandoffEnvelope } from '../../../../../src/core/plan/handoff/envelope';
import type { PayloadContract } from '../../../../../src/core/plan/handoff/payloadContract';
import type { HandoffValidationContext } from '../../../../../src/core/plan/handoff/validationContext';

/** A small stand-in for a stage payload: a batch of planned tickets (v2: `title`; v1 called it `name`). */
export const TicketBatchSchema = z
  .object({
    upstreamContextId: z.string().min(1),
    tickets: z
      .array(
        z.object({
          ticketId: z.string().regex(/^T-\d+$/),
          title: z.string().min(1),
          files: z.array(z.string()).default([]),
          dependsOn: z.array(z.string()).default([]),
        }),
      )
      .min(1),
    confidence: z.number().min(0).max(1),
  })
  .strict();
export type TicketBatch = z.infer<typeof TicketBatchSchema>;

export const ticketBatchContract: PayloadContract<TicketBatch> = {
  schemaRef: 'ticket-batch@2.1.0',
  schema: TicketBatchSchema,
  semantic: batch => {
    const seen = new Set<string>();
    const issues = batch.tickets.flatMap((ticket, index) => {
      const duplicate = seen.has(ticket.ticketId);
      seen.add(ticket.ticketId);
      return duplicate
        ? [{ message: `Duplicate ticket id ${ticket.ticketId}`, path: ['tickets', index, 'ticketId'] }]
        : [];
    });
    const lowConfidence =
      batch.confidence < 0.3
        ? [
            {
              message: 'Confidence unusually low',
              path: ['confidence'],
              severity: 'warning' as const,
              remediation: 'Review the plan.',
            },
          ]
        : [];
    return [...issues, ...lowConfidence];
  },
  references: batch => [
    { kind: 'context', id: batch.upstreamContextId, path: ['upstreamContextId'] },
    ...batch.tickets.flatMap((ticket, t) => [
      ...ticket.files.map((file, f) => ({ kind: 'file' as const, id: file, path: ['tickets', t, 'files', f] })),
      ...ticket.dependsOn.map((id, d) => ({ kind: 'ticket' as const, id, path: ['tickets', t, 'dependsOn', d] })),
    ]),
  ],
};

/** Registry with the ticket batch contract. */
export function makeRegistry(): PayloadContractRegistry {
  return new PayloadContractRegistry().register(ticketBatchContract);
}

export const NOW = '2026-01-10T14:30:00.000Z';

export function validPayload(): TicketBatch {
  return {
    upstreamContextId: 'wf-1/planning-collector/1',
    tickets: [
      { ticketId: 'T-1', title: 'Add the parser', files: ['src/parser.ts'], dependsOn: [] },
      { ticketId: 'T-2', title: 'Wire the parser', files: [], dependsOn: ['T-1'] },
    ],
    confidence: 0.8,
  };
}

/** A valid envelope; `overrides` replace top-level fields. */
export function envelope(overrides: Partial<Record<keyof HandoffEnvelope, unknown>> = {}): Record<string, unknown> {
  return {
    sessionId: 'session-1',
    handoffId: 'handoff-2',
    source: { agentId: 'planning-orchestrator-1', agentType: 'planning-orchestrator' },
    target: { agentId: 'ticket-orchestrator-1', agentType: 'ticket-orchestrator' },
    payloadSchema: 'ticket-batch@2.1.0',
    payload: validPayload(),
    timestamp: NOW,
    trace: { traceId: 'trace-1', depth: 1, parentHandoffId: 'handoff-1' },
    ...overrides,
  };
}

/** A context in which the valid envelope's references all exist. */
export function context(overrides: Partial<HandoffValidationContext> = {}): HandoffValidationContext {
  return {
    now: NOW,
    known: {
      contextIds: new Set(['wf-1/planning-collector/1']),
      ticketIds: new Set(['T-1', 'T-2']),
      files: new Set(['src/parser.ts']),
      handoffIds: new Set(['handoff-1']),
    },
    ...overrides,
  };
}
