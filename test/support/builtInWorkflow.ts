import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorkflow } from '../../src/core/workflow/definition/parseWorkflow';
import { describeIssues, type WorkflowDefinition } from '../../src/core/workflow/definition/workflowDefinition';
import { DEEP_WORK_AGENT_TYPES } from '../../src/core/deepWork/runDeepWork';

/** A workflow shipped in `workflows/`, parsed the way the extension parses it (throws with the issues if it does not parse). */
export function builtInWorkflow(name = 'plan'): WorkflowDefinition {
  const source = { kind: 'built-in' as const, path: `built-in workflows/${name}.yaml` };
  const parsed = parseWorkflow(readFileSync(join(__dirname, '../../workflows', `${name}.yaml`), 'utf8'), source, {
    knownTypes: DEEP_WORK_AGENT_TYPES,
  });
  if (!parsed.ok) throw new Error(describeIssues(parsed.source, parsed.issues));
  return parsed.workflow;
}
