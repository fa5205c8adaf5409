/**
 * The text of a new workflow file ("Council: Create Workflow"): a small but real code-review workflow that uses each
 * feature of spec 002 once, with comments that teach the format. `templateFor` (src/vscode/deepWork/workflowNames.ts)
 * replaces the value of the top-level `name:` line with the name the user chose; a unit test keeps the template
 * parsing with no issues and valid against `schemas/workflow.schema.json`.
 */
export const WORKFLOW_TEMPLATE = `# A Council workflow (spec 002). Run it in chat with:  @council /workflow <name> <what to do>
# Council runs the phases in order. A phase's "execution_mode" decides how it gets its agents:
#   strict   - exactly the subagents listed under "subagents" (or, for behavior main-only, the main script)
#   loose    - only the main agent's script runs (behavior must be main-only); suggested_subagents are a hint
#   adaptive - the "subagents.always" list, plus whatever "subagents.adaptive.script" returns at run time
# "behavior" says how the subagents run: parallel (together), sequential (one after another, each seeing the
# files the earlier ones wrote) or main-only (no subagents; main_agent.script does the work).
# Scripts are JavaScript function bodies run in a sandbox. They can use:
#   await thinkHard(prompt), await readFile(path), await writeFile(path, content),
#   context (the run's state: goal, feature, phases, deliverables, ...), deliverables,
#   identifyGaps(deliverables), files_exist([...]), contains_todos(deliverables)
# Paths and texts may use {{output_dir}} (this run's folder), {{phase_id}}, {{workflow_name}} and {{goal}}.
# Hover over any key for its documentation; the editor checks this file against the workflow JSON Schema.

name: code-review              # the id you run it by: kebab-case, best equal to the file name
description: Review the code a change touches, check the review is complete, then write a short report.
execution_mode: strict         # the default mode of every phase (strict | loose | adaptive)

phases:
  # 1. Adaptive: always scout the code; a script decides which extra agents the goal needs.
  - id: scan
    name: Scan the code
    description: Map the code the change touches and the patterns it follows.
    execution_mode: adaptive     # overrides the workflow's strict for this phase
    behavior: parallel           # the subagents run at the same time
    subagents:
      always:                    # spawned on every run of the phase
        - type: code-scout
          config:
            output_path: "{{output_dir}}/scan/code-map.md"
            max_tokens: 4000
            context:             # extra values given to the agent
              focus: the files and functions the change touches
      adaptive:                  # returns more subagents: an array of { type, config }
        script: |
          const extra = [
            { type: 'pattern-analyzer', config: { output_path: '{{output_dir}}/scan/patterns.md' } },
          ];
          if (/test|coverage|bug|fix/i.test(context.goal)) {
            extra.push({ type: 'test-planner', config: { output_path: '{{output_dir}}/scan/tests.md' } });
          }
          return extra;
    # A custom checkpoint: pause after the phase and let the user choose.
    # (For the standard choices - continue, redo, skip the next phase, abort - write "approval_required: true".)
    checkpoint:
      condition: "context.subagents_spawned > 0"   # optional: show it only when this is true
      prompt: Review the scan before the review starts?
      show_files:
        - "{{output_dir}}/scan/code-map.md"
      options:
        - label: Continue
          on_select:
            action: continue
        - label: Scan again with my notes
          with_feedback: true      # the user types feedback; the repeated phase gets it
          on_select:
            action: repeat_phase
            target: current        # "current" is this phase; or name an earlier phase
        - label: Skip the review, write the report
          on_select:
            action: skip_phases
            phases: [review]       # later phases to skip
        - label: Stop
          on_select:
            action: abort

  # 2. Strict: exactly these subagents, one after another.
  - id: review
    name: Review
    description: Review the change against the scan's findings.
    behavior: sequential         # each subagent sees the files written before it
    subagents:
      - type: reviewer
        config:
          output_path: "{{output_dir}}/review/findings.md"
      - type: writer
        config:
          output_path: "{{output_dir}}/review/suggestions.md"
          context:
            task: turn the findings into concrete, small code suggestions
    # A gap check runs after the phase. Give either "criteria" (below) or a "script" that returns
    # { status: 'complete' } or { status: 'incomplete', gaps, action, additionalAgents }.
    gap_check:
      enabled: true
      max_iterations: 2          # checks (and retries) before the user is asked; default 3, at most 10
      criteria:
        - name: Findings written
          check: "files_exist(['review/findings.md'])"
        - name: No TODOs left
          check: "!contains_todos(deliverables)"
      on_failure:
        action: escalate           # retry | spawn_additional (with additional_agents) | escalate | abort
        message: The review is incomplete. Continue anyway?
    # Skills run during the phase: a registered agent type or a read-only tool, e.g.
    # skills:
    #   - name: codebase-researcher
    #     condition: "context.feature.flags.includes('backend')"
    #     args: ["--output={{output_dir}}/research.md"]

  # 3. Loose: no subagents; the main agent's script does the work.
  - id: report
    name: Write the report
    description: Summarize the scan and the review into the report template.
    execution_mode: loose
    behavior: main-only          # the only behavior of a loose phase
    suggested_subagents: [writer]  # informational only
    main_agent:
      script: |
        const notes = [];
        for (const file of context.deliverables) {
          notes.push('## ' + file.path + '\\n\\n' + (await readFile(file.path)));
        }
        const summary = await thinkHard(
          'Summarize this code review of "' + context.goal + '" in a few paragraphs, most important first:\\n\\n' + notes.join('\\n\\n'),
        );
        await writeFile('report-template.md', '# Code review: {{goal}}\\n\\n' + summary + '\\n\\n## Files\\n\\n{{deliverables}}\\n\\n## Your feedback\\n\\n{{feedback}}\\n');

# After the last phase: render the template into the output. Placeholders: {{goal}}, {{date}},
# {{deliverables}}, {{feedback}}, {{include:<path in the run folder>}}, ...
finalization:
  template: "{{output_dir}}/report-template.md"
  output: "{{output_dir}}/code-review.md"
`;
