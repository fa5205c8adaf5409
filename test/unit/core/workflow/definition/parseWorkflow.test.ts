import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorkflow } from '../../../../../src/core/workflow/definition/parseWorkflow';
import {
  describeIssues,
  type WorkflowDefinition,
  type WorkflowIssue,
  type WorkflowSource,
} from '../../../../../src/core/workflow/definition/workflowDefinition';
import { WORKFLOW_TEMPLATE } from '../../../../../src/core/workflow/definition/workflowTemplate';

const SOURCE: WorkflowSource = { kind: 'workspace', path: '.council/workflows/test.yaml' };
const TYPES = new Set(['code-scout', 'pattern-analyzer', 'test-planner', 'reviewer', 'writer']);

/** A workflow file: a header, then `phases:` with the given (already indented) phase lines. */
function file(phases: string, header = 'name: test\ndescription: A test workflow.\n'): string {
  return `${header}phases:\n${phases}`;
}

/** `knownTypes: null` parses without a type check. */
function ok(text: string, knownTypes: ReadonlySet<string> | null = TYPES): WorkflowDefinition {
  const result = parseWorkflow(text, SOURCE, knownTypes ? { knownTypes } : {});
  assert.ok(result.ok, result.ok ? '' : describeIssues(SOURCE, result.issues));
  return result.workflow;
}

function issues(text: string, knownTypes: ReadonlySet<string> | undefined = TYPES): readonly WorkflowIssue[] {
  const result = parseWorkflow(text, SOURCE, knownTypes ? { knownTypes } : {});
  assert.ok(!result.ok, 'expected the file to be rejected');
  return result.issues;
}

/** The one issue on `field`: asserts its line and message. */
function issueOn(
  all: readonly WorkflowIssue[],
  field: string,
  line: number | undefined,
  message: RegExp,
): WorkflowIssue {
  const found = all.filter(issue => issue.field === field);
  assert.equal(found.length, 1, `one issue on ${field}; got:\n${describeIssues(SOURCE, all)}`);
  const issue = found[0]!;
  assert.equal(issue.line, line, `line of ${field}: ${issue.message}`);
  assert.match(issue.message, message);
  return issue;
}

/** The only issue of a file. */
function onlyIssue(
  text: string,
  field: string,
  line: number | undefined,
  message: RegExp,
  knownTypes?: ReadonlySet<string>,
): WorkflowIssue {
  const all = issues(text, knownTypes ?? TYPES);
  assert.equal(all.length, 1, describeIssues(SOURCE, all));
  return issueOn(all, field, line, message);
}

// Phase bodies, indented for `phases:` (line 4 of `file(...)` is the phase's `- id:` line).
const LIST = '    subagents:\n      - type: code-scout\n';
const ADAPTIVE =
  '    subagents:\n      always:\n        - type: code-scout\n      adaptive:\n        script: "return []"\n';
const MAIN = '    main_agent:\n      script: "await thinkHard(\'x\')"\n';

function phase(mode: string | undefined, behavior: string, body: string): string {
  return `  - id: one\n${mode ? `    execution_mode: ${mode}\n` : ''}    behavior: ${behavior}\n${body}`;
}

describe('parseWorkflow', () => {
  describe('execution mode × behavior', () => {
    const valid: readonly [string, string, string][] = [
      ['strict', 'parallel', LIST],
      ['strict', 'sequential', LIST],
      ['strict', 'main-only', MAIN],
      ['loose', 'main-only', MAIN],
      ['adaptive', 'parallel', ADAPTIVE],
      ['adaptive', 'sequential', ADAPTIVE],
    ];
    for (const [mode, behavior, body] of valid) {
      it(`accepts a ${mode} ${behavior} phase`, () => {
        const workflow = ok(file(phase(mode, behavior, body)));
        const agents = workflow.phases[0]!.agents;
        assert.equal(agents.mode, mode);
        assert.equal(agents.behavior, behavior);
      });
    }

    it('normalizes each shape: strict list, strict main script, loose script with suggestions, adaptive always + script', () => {
      assert.deepEqual(ok(file(phase('strict', 'parallel', LIST))).phases[0]!.agents, {
        mode: 'strict',
        behavior: 'parallel',
        subagents: [{ type: 'code-scout', config: {} }],
      });
      assert.deepEqual(ok(file(phase('strict', 'main-only', MAIN))).phases[0]!.agents, {
        mode: 'strict',
        behavior: 'main-only',
        mainScript: "await thinkHard('x')",
      });
      assert.deepEqual(
        ok(file(phase('loose', 'main-only', `${MAIN}    suggested_subagents: [writer, { type: reviewer }]\n`)))
          .phases[0]!.agents,
        {
          mode: 'loose',
          behavior: 'main-only',
          mainScript: "await thinkHard('x')",
          suggestedSubagents: ['writer', 'reviewer'],
        },
      );
      assert.deepEqual(ok(file(phase('adaptive', 'parallel', ADAPTIVE))).phases[0]!.agents, {
        mode: 'adaptive',
        behavior: 'parallel',
        always: [{ type: 'code-scout', config: {} }],
        adaptiveScript: 'return []',
      });
    });

    it('an adaptive phase may have only `always` or only `adaptive.script`', () => {
      const onlyAlways = ok(file(phase('adaptive', 'parallel', '    subagents:\n      always: [{ type: writer }]\n')))
        .phases[0]!.agents;
      assert.deepEqual(onlyAlways, {
        mode: 'adaptive',
        behavior: 'parallel',
        always: [{ type: 'writer', config: {} }],
      });
      const onlyScript = ok(
        file(phase('adaptive', 'sequential', '    subagents:\n      adaptive: { script: "return []" }\n')),
      ).phases[0]!.agents;
      assert.deepEqual(onlyScript, {
        mode: 'adaptive',
        behavior: 'sequential',
        always: [],
        adaptiveScript: 'return []',
      });
    });

    for (const behavior of ['parallel', 'sequential']) {
      it(`rejects a loose ${behavior} phase, on its behavior line`, () => {
        onlyIssue(
          file(phase('loose', behavior, MAIN)),
          'phases[0].behavior',
          6,
          new RegExp(`A loose phase runs only its main agent: set \`behavior: main-only\` \\(found \`${behavior}\`\\)`),
        );
      });
    }

    it('rejects an adaptive main-only phase', () => {
      onlyIssue(
        file(phase('adaptive', 'main-only', ADAPTIVE)),
        'phases[0].behavior',
        6,
        /adaptive phase spawns subagents: set `behavior: parallel` or `sequential` \(found `main-only`\)/,
      );
    });

    it('takes the mode from the workflow unless the phase overrides it, and says so', () => {
      const header = 'name: test\ndescription: d\nexecution_mode: loose\n';
      const issue = onlyIssue(
        file(phase(undefined, 'parallel', MAIN), header),
        'phases[0].behavior',
        6,
        /A loose phase runs only its main agent/,
      );
      assert.match(issue.message, /workflow’s `execution_mode`/);
      const workflow = ok(
        file(
          `${phase(undefined, 'main-only', MAIN)}  - id: two\n    execution_mode: strict\n    behavior: parallel\n${LIST}`,
          header,
        ),
      );
      assert.equal(workflow.executionMode, 'loose');
      assert.deepEqual(
        workflow.phases.map(p => p.agents.mode),
        ['loose', 'strict'],
      );
    });
  });

  describe('the agents each mode needs', () => {
    it('a loose phase needs main_agent.script (placed on the phase when the field is missing)', () => {
      onlyIssue(
        file(phase('loose', 'main-only', '')),
        'phases[0].main_agent',
        4,
        /A loose phase needs `main_agent.script`/,
      );
    });

    it('a loose phase spawns no subagents', () => {
      onlyIssue(
        file(phase('loose', 'main-only', MAIN + LIST)),
        'phases[0].subagents',
        9,
        /A loose phase spawns no subagents: move them to `suggested_subagents`/,
      );
    });

    for (const behavior of ['parallel', 'sequential']) {
      it(`a strict ${behavior} phase needs a non-empty subagents list`, () => {
        onlyIssue(
          file(phase('strict', behavior, '')),
          'phases[0].subagents',
          4,
          new RegExp(`A strict ${behavior} phase needs \`subagents\`: a non-empty list`),
        );
        onlyIssue(file(phase('strict', behavior, '    subagents: []\n')), 'phases[0].subagents', 7, /non-empty list/);
      });
    }

    it('a strict main-only phase needs main_agent.script and no subagents', () => {
      onlyIssue(
        file(phase('strict', 'main-only', '')),
        'phases[0].main_agent',
        4,
        /strict main-only phase runs its main agent: add `main_agent.script`/,
      );
      onlyIssue(
        file(phase('strict', 'main-only', MAIN + LIST)),
        'phases[0].subagents',
        9,
        /main-only phase spawns no subagents/,
      );
    });

    it('a strict phase lists its subagents; the always/adaptive shape belongs to adaptive phases', () => {
      onlyIssue(
        file(phase('strict', 'parallel', ADAPTIVE)),
        'phases[0].subagents',
        7,
        /strict phase lists its subagents directly .* set `execution_mode: adaptive`/,
      );
    });

    it('an adaptive phase groups its subagents under always / adaptive', () => {
      onlyIssue(
        file(phase('adaptive', 'parallel', LIST)),
        'phases[0].subagents',
        7,
        /adaptive phase groups its subagents: put the list under `always:`/,
      );
    });

    it('an adaptive phase needs always (non-empty) or adaptive.script', () => {
      onlyIssue(
        file(phase('adaptive', 'parallel', '    subagents:\n      always: []\n')),
        'phases[0].subagents',
        7,
        /needs `subagents.always` \(a non-empty list\), `subagents.adaptive.script`/,
      );
      onlyIssue(file(phase('adaptive', 'parallel', '')), 'phases[0].subagents', 4, /needs `subagents.always`/);
    });

    it('suggested_subagents are for loose phases only', () => {
      onlyIssue(
        file(phase('strict', 'parallel', `${LIST}    suggested_subagents: [writer]\n`)),
        'phases[0].suggested_subagents',
        9,
        /only for loose phases; this phase is strict/,
      );
    });

    it('a main script of a parallel phase runs after its subagents; a main-only script is not repeated there', () => {
      const workflow = ok(
        file(`${phase('strict', 'parallel', LIST + MAIN)}  - id: two\n    behavior: main-only\n${MAIN}`),
      );
      assert.equal(workflow.phases[0]!.mainScript, "await thinkHard('x')");
      assert.equal(workflow.phases[1]!.mainScript, undefined);
    });
  });

  describe('subagent types', () => {
    it('rejects an unknown type, with the known ones and the closest', () => {
      const text = file(phase('strict', 'parallel', '    subagents:\n      - type: code-scot\n'));
      onlyIssue(
        text,
        'phases[0].subagents[0].type',
        8,
        /^Unknown subagent type `code-scot`; known types: code-scout, pattern-analyzer, reviewer, test-planner, writer \(did you mean `code-scout`\?\)\.$/,
      );
    });

    it('checks adaptive `always` and gap-check additional agents too, and nothing without knownTypes', () => {
      const text = file(
        `${phase('adaptive', 'parallel', '    subagents:\n      always: [{ type: reviewr }]\n')}` +
          '    gap_check:\n      criteria: [{ name: n, check: "true" }]\n      on_failure:\n        action: spawn_additional\n        additional_agents: [{ type: nobody-knows }]\n',
      );
      const all = issues(text);
      issueOn(all, 'phases[0].subagents.always[0].type', 8, /Unknown subagent type `reviewr`.*did you mean `reviewer`/);
      const unknown = issueOn(
        all,
        'phases[0].gap_check.on_failure.additional_agents[0].type',
        13,
        /Unknown subagent type `nobody-knows`/,
      );
      assert.doesNotMatch(unknown.message, /did you mean/);
      assert.equal(all.length, 2);
      ok(text, null);
    });
  });

  describe('checkpoints', () => {
    const checkpoint = (options: string) => `    checkpoint:\n      prompt: Go on?\n      options:\n${options}`;
    const three = (cp: string) =>
      file(
        `  - id: first\n    behavior: main-only\n${MAIN}  - id: second\n    behavior: main-only\n${MAIN}${cp}  - id: third\n    behavior: main-only\n${MAIN}`,
      );

    it('approval_required: true is the approval checkpoint; false is rejected', () => {
      assert.deepEqual(
        ok(file(`${phase('strict', 'parallel', LIST)}    checkpoint: { approval_required: true }\n`)).phases[0]!
          .checkpoint,
        { kind: 'approval' },
      );
      onlyIssue(
        file(`${phase('strict', 'parallel', LIST)}    checkpoint:\n      approval_required: false\n`),
        'phases[0].checkpoint.approval_required',
        10,
        /Set `approval_required: true`, or remove the checkpoint \(found `false`\)/,
      );
    });

    it('resolves repeat_phase `current` (and a missing target) to the phase itself; fills defaults', () => {
      const workflow = ok(
        three(
          checkpoint(
            '        - label: Again\n          with_feedback: true\n          on_select: { action: repeat_phase, target: current }\n' +
              '        - label: Redo\n          on_select: { action: repeat_phase }\n' +
              '        - label: Back\n          on_select: { action: repeat_phase, target: first }\n' +
              '        - label: Skip\n          on_select: { action: skip_phases, phases: [third] }\n' +
              '        - label: Stop\n          on_select: { action: abort }\n',
          ),
        ),
      );
      assert.deepEqual(workflow.phases[1]!.checkpoint, {
        kind: 'custom',
        prompt: 'Go on?',
        showFiles: [],
        options: [
          { label: 'Again', withFeedback: true, onSelect: { action: 'repeat_phase', target: 'second' } },
          { label: 'Redo', withFeedback: false, onSelect: { action: 'repeat_phase', target: 'second' } },
          { label: 'Back', withFeedback: false, onSelect: { action: 'repeat_phase', target: 'first' } },
          { label: 'Skip', withFeedback: false, onSelect: { action: 'skip_phases', phases: ['third'] } },
          { label: 'Stop', withFeedback: false, onSelect: { action: 'abort' } },
        ],
      });
    });

    it('rejects a repeat_phase target that is unknown or later', () => {
      const all = issues(
        three(
          checkpoint(
            '        - label: A\n          on_select: { action: repeat_phase, target: frist }\n' +
              '        - label: B\n          on_select: { action: repeat_phase, target: third }\n',
          ),
        ),
      );
      issueOn(
        all,
        'phases[1].checkpoint.options[0].on_select.target',
        16,
        /there is no phase `frist` \(did you mean `first`\?\); the phases are `first`, `second`, `third`\. Use one of them, or `current`/,
      );
      issueOn(
        all,
        'phases[1].checkpoint.options[1].on_select.target',
        18,
        /goes back to this phase or an earlier one; `third` comes later/,
      );
      assert.equal(all.length, 2);
    });

    it('rejects skip_phases naming an unknown phase, the phase itself or an earlier one, or no phases', () => {
      const all = issues(
        three(
          checkpoint(
            '        - label: A\n          on_select:\n            action: skip_phases\n            phases: [thrid, second, first]\n' +
              '        - label: B\n          on_select: { action: skip_phases }\n',
          ),
        ),
      );
      issueOn(
        all,
        'phases[1].checkpoint.options[0].on_select.phases[0]',
        18,
        /`skip_phases`: there is no phase `thrid` \(did you mean `third`\?\)/,
      );
      issueOn(
        all,
        'phases[1].checkpoint.options[0].on_select.phases[1]',
        18,
        /`second` is this phase itself\. Name a later phase/,
      );
      issueOn(all, 'phases[1].checkpoint.options[0].on_select.phases[2]', 18, /`first` comes before this phase/);
      issueOn(all, 'phases[1].checkpoint.options[1].on_select.phases', 20, /Missing `phases`: list the later phases/);
      assert.equal(all.length, 4);
    });

    it('rejects target / phases on an action that does not use them', () => {
      const all = issues(
        three(
          checkpoint('        - label: A\n          on_select: { action: continue, target: first, phases: [third] }\n'),
        ),
      );
      issueOn(
        all,
        'phases[1].checkpoint.options[0].on_select.target',
        16,
        /`target` is for `repeat_phase`; this option's action is `continue`/,
      );
      issueOn(all, 'phases[1].checkpoint.options[0].on_select.phases', 16, /`phases` is for `skip_phases`/);
    });

    it('rejects a custom checkpoint without options (no default options: that is approval_required)', () => {
      onlyIssue(
        file(`${phase('strict', 'parallel', LIST)}    checkpoint:\n      prompt: Go on?\n`),
        'phases[0].checkpoint.options',
        9,
        /A custom checkpoint needs `options`.*use `approval_required: true` instead/,
      );
      onlyIssue(
        file(`${phase('strict', 'parallel', LIST)}    checkpoint:\n      prompt: Go on?\n      options: []\n`),
        'phases[0].checkpoint.options',
        11,
        /at least one option/,
      );
    });

    it('explains a malformed checkpoint through the shape it was meant to have', () => {
      const custom = issues(
        file(`${phase('strict', 'parallel', LIST)}    checkpoint:\n      prompt: Go on?\n      optons: []\n`),
      );
      issueOn(
        custom,
        'phases[0].checkpoint.optons',
        11,
        /Unknown field `optons` \(did you mean `options`\?\).*Allowed here: `condition`, `prompt`, `show_files`, `options`/,
      );
      issueOn(custom, 'phases[0].checkpoint.options', 9, /A custom checkpoint needs `options`/);
      const approval = issues(
        file(`${phase('strict', 'parallel', LIST)}    checkpoint: { approval_required: true, prompt: p }\n`),
      );
      issueOn(approval, 'phases[0].checkpoint.prompt', 9, /Unknown field `prompt`.*Allowed here: `approval_required`/);
    });

    it('keeps condition and show_files', () => {
      const workflow = ok(
        file(
          `${phase('strict', 'parallel', LIST)}    checkpoint:\n      condition: "context.subagents_spawned > 0"\n      prompt: p\n      show_files: ["{{output_dir}}/a.md"]\n      options:\n        - label: Go\n          on_select: { action: continue }\n`,
        ),
      );
      const checkpoint = workflow.phases[0]!.checkpoint;
      assert.ok(checkpoint?.kind === 'custom');
      assert.equal(checkpoint.condition, 'context.subagents_spawned > 0');
      assert.deepEqual(checkpoint.showFiles, ['{{output_dir}}/a.md']);
    });

    it('refuses a show_files path that points outside the workspace, at load', () => {
      for (const shown of ['../../etc/passwd', '/etc/passwd', '{{output_dir}}/../../../x']) {
        const all = issues(
          file(
            `${phase('strict', 'parallel', LIST)}    checkpoint:\n      prompt: p\n      show_files: ["docs/ok.md", "${shown}"]\n      options:\n        - label: Go\n          on_select: { action: continue }\n`,
          ),
        );
        const issue = issueOn(
          all,
          'phases[0].checkpoint.show_files[1]',
          11,
          /cannot be shown: it points outside the workspace/,
        );
        assert.ok(issue.message.includes(shown), shown);
      }
    });
  });

  describe('gap checks', () => {
    const gap = (body: string) => file(`${phase('strict', 'parallel', LIST)}    gap_check:\n${body}`);

    it('a script gap check, with max_iterations defaulting to 3', () => {
      assert.deepEqual(ok(gap('      script: "return { status: \'complete\' }"\n')).phases[0]!.gapCheck, {
        kind: 'script',
        maxIterations: 3,
        script: "return { status: 'complete' }",
      });
    });

    it('a criteria gap check; on_failure defaults to escalate; both spellings of additional agents', () => {
      const criteria =
        '      max_iterations: 5\n      criteria:\n        - name: Files\n          check: "files_exist([\'a.md\'])"\n';
      assert.deepEqual(ok(gap(criteria)).phases[0]!.gapCheck, {
        kind: 'criteria',
        maxIterations: 5,
        criteria: [{ name: 'Files', check: "files_exist(['a.md'])" }],
        onFailure: { action: 'escalate', additionalAgents: [] },
      });
      for (const key of ['additional_agents', 'additionalAgents']) {
        const check = ok(
          gap(
            `${criteria}      on_failure:\n        action: spawn_additional\n        message: More\n        ${key}: [{ type: writer, config: { focus: gaps } }]\n`,
          ),
        ).phases[0]!.gapCheck;
        assert.deepEqual(check?.kind === 'criteria' ? check.onFailure : undefined, {
          action: 'spawn_additional',
          message: 'More',
          additionalAgents: [{ type: 'writer', config: { focus: 'gaps' } }],
        });
      }
    });

    it('enabled: false leaves the phase without a gap check', () => {
      assert.equal(ok(gap('      enabled: false\n')).phases[0]!.gapCheck, undefined);
    });

    it('needs exactly one of script and criteria', () => {
      onlyIssue(
        gap('      script: "return {}"\n      criteria: [{ name: n, check: "true" }]\n'),
        'phases[0].gap_check',
        9,
        /either a `script` or `criteria`, not both/,
      );
      onlyIssue(
        gap('      max_iterations: 2\n'),
        'phases[0].gap_check',
        9,
        /needs a `script` .* or `criteria` .*: add one, or set `enabled: false`/,
      );
    });

    it('rejects on_failure with a script, spawn_additional without agents, agents for another action, both spellings', () => {
      onlyIssue(
        gap('      script: "return {}"\n      on_failure: { action: retry }\n'),
        'phases[0].gap_check.on_failure',
        11,
        /a gap-check script returns its own `action`: remove `on_failure`/,
      );
      const criteria = '      criteria: [{ name: n, check: "true" }]\n      on_failure:\n';
      onlyIssue(
        gap(`${criteria}        action: spawn_additional\n`),
        'phases[0].gap_check.on_failure.additional_agents',
        11,
        /`spawn_additional` spawns `additional_agents`: list them/,
      );
      onlyIssue(
        gap(`${criteria}        action: retry\n        additional_agents: [{ type: writer }]\n`),
        'phases[0].gap_check.on_failure.additional_agents',
        13,
        /Only `spawn_additional` spawns `additional_agents`; the action is `retry`/,
      );
      onlyIssue(
        gap(
          `${criteria}        action: spawn_additional\n        additional_agents: [{ type: writer }]\n        additionalAgents: [{ type: writer }]\n`,
        ),
        'phases[0].gap_check.on_failure.additionalAgents',
        14,
        /once: `additional_agents` or `additionalAgents`, not both/,
      );
    });

    it('max_iterations is 1 to 10', () => {
      onlyIssue(
        gap('      max_iterations: 11\n      script: "return {}"\n'),
        'phases[0].gap_check.max_iterations',
        10,
        /At most 10 iterations/,
      );
      onlyIssue(
        gap('      max_iterations: 0\n      script: "return {}"\n'),
        'phases[0].gap_check.max_iterations',
        10,
        /at least 1/,
      );
    });
  });

  describe('structure', () => {
    it('fills the defaults: strict mode, phase name = id, empty description, config {}, skills args []', () => {
      const workflow = ok(
        file(
          `${phase(undefined, 'parallel', LIST)}    skills:\n      - name: codebase-researcher\n        condition: "true"\n      - name: other\n        args: ["--x={{output_dir}}"]\n`,
        ),
      );
      assert.equal(workflow.executionMode, 'strict');
      const first = workflow.phases[0]!;
      assert.equal(first.name, 'one');
      assert.equal(first.description, '');
      assert.deepEqual(first.skills, [
        { name: 'codebase-researcher', condition: 'true', args: [] },
        { name: 'other', args: ['--x={{output_dir}}'] },
      ]);
      assert.equal(first.checkpoint, undefined);
      assert.equal(first.gapCheck, undefined);
      assert.equal(workflow.finalization, undefined);
      assert.deepEqual(workflow.source, SOURCE);
    });

    it('keeps config keys the agent type reads, and the finalization', () => {
      const workflow = ok(
        file(
          `${phase('strict', 'parallel', '    subagents:\n      - type: code-scout\n        config:\n          output_path: a.md\n          max_tokens: 100\n          model: haiku\n          context: { key: value }\n          focus: api\n')}finalization:\n  template: t.md\n  output: "{{output_dir}}/final.md"\n`,
        ),
      );
      const agents = workflow.phases[0]!.agents;
      assert.ok(agents.mode === 'strict' && agents.behavior !== 'main-only');
      assert.deepEqual(agents.subagents[0]!.config, {
        output_path: 'a.md',
        max_tokens: 100,
        model: 'haiku',
        context: { key: 'value' },
        focus: 'api',
      });
      assert.deepEqual(workflow.finalization, { template: 't.md', output: '{{output_dir}}/final.md' });
    });

    it('YAML anchors and `<<` merge keys work (a shared config)', () => {
      const workflow = ok(
        file(
          '  - id: a\n    behavior: parallel\n    subagents:\n      - type: writer\n        config: &shared { model: haiku, max_tokens: 500 }\n      - type: reviewer\n        config:\n          <<: *shared\n          model: opus\n',
        ),
      );
      const agents = workflow.phases[0]!.agents;
      assert.ok(agents.mode === 'strict' && agents.behavior !== 'main-only');
      assert.deepEqual(
        agents.subagents.map(s => s.config),
        [
          { model: 'haiku', max_tokens: 500 },
          { model: 'opus', max_tokens: 500 },
        ],
      );
    });

    it('records the line of each phase', () => {
      const workflow = ok(
        file(`${phase('strict', 'parallel', LIST)}\n  # a comment\n  - id: two\n    behavior: main-only\n${MAIN}`),
      );
      assert.deepEqual(
        workflow.phases.map(p => p.line),
        [4, 11],
      );
    });

    it('rejects duplicate phase ids and the reserved id `current`', () => {
      const all = issues(
        file(
          `${phase('strict', 'main-only', MAIN)}  - id: one\n    behavior: main-only\n${MAIN}  - id: current\n    behavior: main-only\n${MAIN}`,
        ),
      );
      issueOn(
        all,
        'phases[1].id',
        9,
        /Phase id `one` is already used by phases\[0\] \(line 4\): give each phase its own id/,
      );
      issueOn(all, 'phases[2].id', 13, /`current` is reserved/);
      assert.equal(all.length, 2);
    });

    it('unknown fields, with a suggestion and the allowed ones', () => {
      const issue = onlyIssue(
        file(
          phase('strict', 'parallel', '    subagent:\n      - type: code-scout\n    subagents: [{ type: writer }]\n'),
        ),
        'phases[0].subagent',
        7,
        /Unknown field `subagent` \(did you mean `subagents`\?\): remove it or correct its name/,
      );
      assert.match(issue.message, /Allowed here: `id`, `name`, .*`skills`/);
    });

    it('wrong types, missing fields and bad values say what is expected', () => {
      const all = issues(
        'name: Test Flow\nexecution_mode: stirct\nphases:\n  - id: a\n    behavior: paralel\n    subagents: code-scout\n',
      );
      issueOn(all, 'name', 1, /kebab-case/);
      assert.ok(
        !all.some(issue => issue.field === 'description'),
        'description is optional (spec 002 never requires it)',
      );
      issueOn(
        all,
        'execution_mode',
        2,
        /Use one of `strict`, `loose`, `adaptive` \(found `stirct`; did you mean `strict`\?\)/,
      );
      issueOn(all, 'phases[0].behavior', 5, /did you mean `parallel`/);
      issueOn(all, 'phases[0].subagents', 6, /Give `subagents` as a list .* Found the text `code-scout`/);
      assert.equal(all.length, 4);
    });

    it('an empty value, a list item of the wrong kind, a number out of range', () => {
      const all = issues(
        file(
          '  - id: a\n    behavior:\n    main_agent:\n    subagents:\n      - reviewer\n      - type: writer\n        config: { max_tokens: 0 }\n',
        ),
      );
      issueOn(
        all,
        'phases[0].behavior',
        5,
        /Use one of `parallel`, `sequential`, `main-only` \(found an empty value\)/,
      );
      issueOn(all, 'phases[0].main_agent', 6, /Expected a mapping \(`key: value` lines\), found an empty value/);
      issueOn(all, 'phases[0].subagents[0]', 8, /Expected a mapping .* found the text `reviewer`/);
      issueOn(all, 'phases[0].subagents[1].config.max_tokens', 10, /Use more than 0 \(found `0`\)/);
      assert.equal(all.length, 4);
    });

    it('a missing field is placed on its parent', () => {
      onlyIssue(
        file('  - id: a\n    main_agent:\n      script: x\n'),
        'phases[0].behavior',
        4,
        /Missing `behavior`.*: add it/,
      );
      onlyIssue('name: x\ndescription: d\n', 'phases', 1, /Missing `phases`/);
      onlyIssue('name: x\ndescription: d\nphases: []\n', 'phases', 3, /at least one phase/);
    });

    it('collects every issue of the file, in line order', () => {
      const text = file(
        `${phase('loose', 'parallel', LIST)}` + // behavior, main_agent, subagents
          '  - id: one\n    behavior: sequential\n' + // duplicate id, no subagents
          '    checkpoint:\n      prompt: p\n' + // no options
          '    gap_check:\n      max_iterations: 12\n', // too many
        'name: test\n',
      ); // no description: allowed
      const all = issues(text);
      assert.deepEqual(
        all.map(issue => issue.field),
        [
          'phases[0].main_agent',
          'phases[0].behavior',
          'phases[0].subagents',
          'phases[1].id',
          'phases[1].subagents',
          'phases[1].checkpoint.options',
          'phases[1].gap_check.max_iterations',
        ],
      );
      for (const issue of all.slice(1)) assert.ok(issue.line, issue.field);
    });

    it('a YAML syntax error has its line and column', () => {
      const all = issues('name: x\ndescription: d: e\nphases: []\n');
      assert.deepEqual(
        all.map(issue => [issue.field, issue.line, issue.column]),
        [['(yaml)', 2, 14]],
      );
      assert.match(
        all[0]!.message,
        /^YAML syntax error: Nested mappings are not allowed in compact mappings\. Fix the YAML/,
      );
      const indent = issues('name: x\ndescription: d\nphases:\n  - id: a\n   behavior: parallel\n');
      assert.equal(indent[0]!.line, 5);
      const duplicate = issues('name: x\nname: y\n');
      assert.equal(duplicate[0]!.line, 2);
      assert.match(duplicate[0]!.message, /unique/);
    });

    it('an empty file, and a file that is not a mapping', () => {
      onlyIssue('', '(file)', undefined, /The file is empty/);
      onlyIssue('# only a comment\n', '(file)', undefined, /The file is empty/);
      onlyIssue('- a\n- b\n', '(file)', 1, /A workflow file is a mapping .* found a list/);
    });

    it('describeIssues prints path:line: `field`: message', () => {
      const all = issues(file(phase('loose', 'parallel', MAIN)));
      assert.equal(
        describeIssues(SOURCE, all),
        '.council/workflows/test.yaml:6: `phases[0].behavior`: ' + all[0]!.message,
      );
    });
  });

  describe('shipped files', () => {
    it('the Create Workflow template parses with no issues, using every feature', () => {
      const workflow = ok(WORKFLOW_TEMPLATE);
      const [scan, review, report] = workflow.phases;
      assert.equal(scan?.agents.mode, 'adaptive');
      assert.ok(scan?.agents.mode === 'adaptive' && scan.agents.always.length > 0 && scan.agents.adaptiveScript);
      assert.ok(scan?.checkpoint?.kind === 'custom' && scan.checkpoint.options.some(option => option.withFeedback));
      assert.ok(review?.gapCheck);
      assert.deepEqual([report?.agents.mode, report?.agents.behavior], ['loose', 'main-only']);
      assert.ok(
        report?.agents.mode === 'loose' &&
          /thinkHard/.test(report.agents.mainScript) &&
          /writeFile/.test(report.agents.mainScript),
      );
      assert.ok(workflow.finalization);
    });

    it('the built-in plan.yaml parses: discovery, planning, tickets, each one stage type', () => {
      const text = readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'workflows', 'plan.yaml'), 'utf8');
      const stages = new Set(['discovery-stage', 'planning-stage', 'ticket-stage']);
      const result = parseWorkflow(
        text,
        { kind: 'built-in', path: 'built-in workflows/plan.yaml' },
        { knownTypes: stages },
      );
      assert.ok(result.ok, result.ok ? '' : describeIssues(result.source, result.issues));
      const workflow = result.workflow;
      assert.equal(workflow.name, 'plan');
      assert.equal(workflow.executionMode, 'strict');
      assert.equal(workflow.finalization, undefined);
      assert.deepEqual(
        workflow.phases.map(p => [
          p.id,
          p.agents.behavior,
          p.agents.mode === 'strict' && p.agents.behavior !== 'main-only' ? p.agents.subagents.map(s => s.type) : [],
          p.checkpoint?.kind,
        ]),
        [
          ['discovery', 'sequential', ['discovery-stage'], 'custom'],
          ['planning', 'sequential', ['planning-stage'], 'custom'],
          ['tickets', 'sequential', ['ticket-stage'], undefined],
        ],
      );
      // The /plan buttons are these options, matched by action: skipping the next stage skips every later one.
      const options = workflow.phases.map(p =>
        p.checkpoint?.kind === 'custom' ? p.checkpoint.options.map(o => [o.label, o.onSelect]) : [],
      );
      assert.deepEqual(options[0], [
        ['Continue', { action: 'continue' }],
        ['Redo stage', { action: 'repeat_phase', target: 'discovery' }],
        ['Skip next stage', { action: 'skip_phases', phases: ['planning', 'tickets'] }],
        ['Abort', { action: 'abort' }],
      ]);
      assert.ok(!parseWorkflow(text, SOURCE, { knownTypes: TYPES }).ok, 'stage types are checked like any other');
    });
  });
});
