import { CancellationScope } from '../../llm/cancellationScope';
import { neverCancelled } from '../../llm/languageModel';
import type { JsonValue, ScriptOutcome, ScriptRequest, ScriptSandbox } from './scriptSandbox';

/** A script run as it crosses to the worker: the host functions by name only (they stay on the host side). */
type WorkerRunRequest = Omit<ScriptRequest, 'functions' | 'signal'> & { readonly functions: readonly string[] };

/** What the host sends the worker. */
export type ToScriptWorker =
  | { readonly kind: 'run'; readonly id: number; readonly request: WorkerRunRequest }
  | { readonly kind: 'hostResult'; readonly id: number; readonly callId: number; readonly value: JsonValue }
  | { readonly kind: 'hostError'; readonly id: number; readonly callId: number; readonly message: string }
  | { readonly kind: 'cancel'; readonly id: number };

/** What the worker sends the host. */
export type FromScriptWorker =
  | {
      readonly kind: 'hostCall';
      readonly id: number;
      readonly callId: number;
      readonly name: string;
      readonly args: readonly JsonValue[];
    }
  | { readonly kind: 'done'; readonly id: number; readonly outcome: ScriptOutcome };

/** One end of the channel to a worker (structured-clone messages). */
export interface MessagePortLike<In, Out> {
  post(message: Out): void;
  onMessage(handler: (message: In) => void): void;
}

/**
 * The worker's side: runs each request in `sandbox`, calling host functions back through the port. Runs may
 * overlap; each has its own engine.
 */
export function serveScripts(port: MessagePortLike<ToScriptWorker, FromScriptWorker>, sandbox: ScriptSandbox): void {
  const pending = new Map<string, { resolve: (value: JsonValue) => void; reject: (error: Error) => void }>();
  const cancels = new Map<number, CancellationScope>();
  let nextCall = 1;
  port.onMessage(message => {
    if (message.kind === 'hostResult' || message.kind === 'hostError') {
      const key = `${message.id}/${message.callId}`;
      const waiting = pending.get(key);
      pending.delete(key);
      if (message.kind === 'hostResult') waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.message));
      return;
    }
    if (message.kind === 'cancel') {
      cancels.get(message.id)?.cancel();
      return;
    }
    const { id, request } = message;
    const signal = new CancellationScope(neverCancelled);
    cancels.set(id, signal);
    const functions = Object.fromEntries(
      request.functions.map(name => [
        name,
        (...args: JsonValue[]) =>
          new Promise<JsonValue>((resolve, reject) => {
            const callId = nextCall++;
            pending.set(`${id}/${callId}`, { resolve, reject });
            port.post({ kind: 'hostCall', id, callId, name, args });
          }),
      ]),
    );
    void sandbox.run({ ...request, functions, signal }).then(outcome => {
      cancels.delete(id);
      port.post({ kind: 'done', id, outcome });
    });
  });
}
