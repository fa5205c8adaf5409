import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LoggedMessage, StandInScenario } from './copilotCliStandIn';

/*
 * Sets up the Copilot CLI stand-in (copilotCliStandIn.ts) for one test: a launcher the SDK starts as the CLI (a
 * `.js` path, which the SDK runs with this Node; the launcher loads the TypeScript through tsx), the scenario file
 * and the log of what the SDK sent.
 */

export interface CopilotStandIn {
  /** What to give the copilot provider as the CLI's path. */
  readonly cliPath: string;
  /** The environment the CLI is started with (the stand-in finds its scenario and log there). */
  readonly environment: Readonly<Record<string, string>>;
  /** Every JSON-RPC request and notification the stand-in received, in order. */
  received(): LoggedMessage[];
  remove(): void;
}

export function copilotStandIn(scenario: StandInScenario): CopilotStandIn {
  const folder = mkdtempSync(join(tmpdir(), 'council-copilot-'));
  const script = resolve(__dirname, 'copilotCliStandIn.ts');
  const cliPath = join(folder, 'copilot.js');
  writeFileSync(
    cliPath,
    `require(${JSON.stringify(require.resolve('tsx/cjs'))});\nrequire(${JSON.stringify(script)});\n`,
  );
  const scenarioFile = join(folder, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify(scenario));
  const log = join(folder, 'received.jsonl');
  writeFileSync(log, '');
  return {
    cliPath,
    environment: {
      PATH: process.env.PATH ?? '',
      // Not the machine's Copilot CLI home (its MCP config would be read).
      HOME: folder,
      STAND_IN_SCENARIO: scenarioFile,
      STAND_IN_LOG: log,
    },
    received: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map(line => JSON.parse(line) as LoggedMessage)
        : [],
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
