import * as vscode from 'vscode';
import * as assert from '../assert';
import { ActionableError } from '../../../src/core/actionableError';
import { DEEP_WORK_AGENT_TYPES } from '../../../src/core/deepWork/runDeepWork';
import { loadSandboxWasm } from '../../../src/vscode/deepWork/sandboxWasm';
import { describeWorkflowProblems, overrideNotice } from '../../../src/core/deepWork/buildWorkflowCatalog';
import { loadWorkflows } from '../../../src/vscode/deepWork/workflowCatalog';
import {
  WORKFLOW_COMMAND,
  registerWorkflowCommands,
  type CreateWorkflowResult,
} from '../../../src/vscode/deepWork/workflowCommands';
import { WorkspaceRunOutputs } from '../../../src/vscode/deepWork/workflowOutputs';
import { councilExtension } from '../harness';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The agent types the extension offers workflows: the generic roles and /plan's pipeline stages. */
const KNOWN_TYPES = DEEP_WORK_AGENT_TYPES;

/** Overrides the built-in `plan`. */
const PLAN_OVERRIDE = `name: plan
description: TEST-WORKSPACE-PLAN-OVERRIDE
execution_mode: strict
phases:
  - id: scan
    name: Scan
    description: Look at the code the goal touches.
    behavior: parallel
    subagents:
      - type: code-scout
        config:
          output_path: scan.md
`;

/** A workspace-only workflow, as a `.yml` file. */
const REVIEW = `name: review
description: Review a change.
execution_mode: strict
phases:
  - id: review
    name: Review
    description: Review the change.
    behavior: sequential
    subagents:
      - type: reviewer
        config:
          output_path: review.md
`;

/** `behavior` on line 8 is not one the schema allows. */
const BROKEN = `name: broken-flow
description: A workflow with a bad phase.
execution_mode: strict
phases:
  - id: scan
    name: Scan
    description: Look around.
    behavior: sideways
    subagents:
      - type: code-scout
`;

/** A value that contains itself through an alias: it parses, but no run could save it. */
const SELF_REFERENCE = `name: looping-data
description: x
config: &c {self: *c}
phases: []
`;

/** `text` as UTF-16 LE with a byte-order mark, as Windows Notepad once saved it. */
function utf16(text: string): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) bytes[2 + 2 * i] = text.charCodeAt(i);
  return bytes;
}

/** A second workspace file that defines `plan` again; sorts after plan-override.yaml, so it loses. */
const PLAN_DUPLICATE = PLAN_OVERRIDE.replace('TEST-WORKSPACE-PLAN-OVERRIDE', 'TEST-DUPLICATE');

describe('workflows in a real VS Code', () => {
  let extensionUri: vscode.Uri;
  let folder: vscode.WorkspaceFolder | undefined;
  let workflowsFolder: vscode.Uri | undefined;
  let folderExisted = false;
  let registered: vscode.Disposable[] = [];
  const written: vscode.Uri[] = [];

  async function writeWorkflow(name: string, text: string): Promise<void> {
    const uri = vscode.Uri.joinPath(workflowsFolder!, name);
    await vscode.workspace.fs.writeFile(uri, encoder.encode(text));
    written.push(uri);
  }

  before(async () => {
    extensionUri = (await councilExtension()).extensionUri;
    folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) {
      workflowsFolder = vscode.Uri.joinPath(folder.uri, '.council', 'workflows');
      folderExisted = await vscode.workspace.fs.stat(workflowsFolder).then(
        () => true,
        () => false,
      );
    }
  });

  after(async () => {
    for (const disposable of registered) disposable.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The web runner mounts an in-memory copy, but the desktop runner opens the folder on disk: leave it as found.
    if (workflowsFolder && !folderExisted)
      await vscode.workspace.fs.delete(workflowsFolder, { recursive: true }).then(undefined, () => undefined);
    else for (const uri of written) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
  });

  it('declares and registers Council: Create Workflow and Council: Run Workflow', async () => {
    const declared = (
      (await councilExtension()).packageJSON as { contributes: { commands: { command: string; category?: string }[] } }
    ).contributes.commands;
    for (const id of Object.values(WORKFLOW_COMMAND))
      assert.equal(declared.find(command => command.command === id)?.category, 'Council', id);
    const commands = await vscode.commands.getCommands(true);
    assert.ok(
      commands.includes(WORKFLOW_COMMAND.create),
      `${WORKFLOW_COMMAND.create} is not registered (registerWorkflowCommands in activate)`,
    );
    assert.ok(
      commands.includes(WORKFLOW_COMMAND.run),
      `${WORKFLOW_COMMAND.run} is not registered (registerWorkflowCommands in activate)`,
    );
  });

  it('loads the built-in plan workflow from the extension with vscode.workspace.fs', async () => {
    const catalog = await loadWorkflows(extensionUri, KNOWN_TYPES);
    assert.deepEqual(
      catalog.problems.filter(problem => problem.source.kind === 'built-in'),
      [],
      describeWorkflowProblems(catalog.problems),
    );
    const plan = catalog.get('plan');
    assert.ok(plan, 'no built-in plan workflow');
    if (!folderExisted) assert.deepEqual(plan.source, { kind: 'built-in', path: 'built-in workflows/plan.yaml' });
    assert.ok(plan.phases.length > 0);
  });

  describe('with workflow files in the workspace', () => {
    before(async function () {
      if (!workflowsFolder || !vscode.workspace.isTrusted) this.skip();
      await vscode.workspace.fs.createDirectory(workflowsFolder);
      await writeWorkflow('plan-override.yaml', PLAN_OVERRIDE);
      await writeWorkflow('review.yml', REVIEW);
      await writeWorkflow('broken.yaml', BROKEN);
      await writeWorkflow('plan-override2.yaml', PLAN_DUPLICATE);
      await writeWorkflow('notes.txt', 'not a workflow');
      await writeWorkflow('self-reference.yaml', SELF_REFERENCE);
      const wide = vscode.Uri.joinPath(workflowsFolder, 'wide.yaml');
      await vscode.workspace.fs.writeFile(wide, utf16(REVIEW.replace('name: review', 'name: wide')));
      written.push(wide);
    });

    it('names the encoding of a UTF-16 file and refuses data that contains itself, at load, while the others load', async () => {
      const catalog = await loadWorkflows(extensionUri, KNOWN_TYPES);
      assert.ok(catalog.get('review'));
      const text = describeWorkflowProblems(catalog.problems);
      assert.match(text, /wide\.yaml.*UTF-16 \(little-endian\), not UTF-8\. Save it as UTF-8/);
      assert.match(text, /self-reference\.yaml:3: `config\.self`: This value contains itself through a YAML alias/);
    });

    it('reads at most 50 workflow files from a folder and says so; the first ones by name still load', async () => {
      const extra: vscode.Uri[] = [];
      for (let n = 0; n < 50; n++) {
        const uri = vscode.Uri.joinPath(workflowsFolder!, `zz-${String(n).padStart(2, '0')}.yaml`);
        await vscode.workspace.fs.writeFile(uri, encoder.encode(REVIEW.replace('name: review', `name: zz-${n}`)));
        extra.push(uri);
      }
      try {
        const catalog = await loadWorkflows(extensionUri, KNOWN_TYPES);
        assert.match(
          describeWorkflowProblems(catalog.problems),
          /\.council\/workflows.*the folder has 5\d workflow files; only the first 50 by name are read\. Remove or merge the others\./,
        );
        assert.ok(catalog.get('review'), 'an early file still loads');
        assert.equal(catalog.get('zz-49'), undefined, 'a file past the first 50 is not read');
      } finally {
        for (const uri of extra) await vscode.workspace.fs.delete(uri);
      }
    });

    it('uses an edited file at the next load', async () => {
      await writeWorkflow('review.yml', REVIEW.replace('Review a change.', 'Review a change, edited.'));
      assert.equal(
        (await loadWorkflows(extensionUri, KNOWN_TYPES)).get('review')?.description,
        'Review a change, edited.',
      );
      await writeWorkflow('review.yml', REVIEW);
      assert.equal((await loadWorkflows(extensionUri, KNOWN_TYPES)).get('review')?.description, 'Review a change.');
    });

    it('a workspace file overrides the built-in of the same name and says so; a .yml file loads too', async () => {
      const catalog = await loadWorkflows(extensionUri, KNOWN_TYPES);
      const plan = catalog.get('plan');
      assert.equal(plan?.description, 'TEST-WORKSPACE-PLAN-OVERRIDE');
      assert.deepEqual(plan?.source, {
        kind: 'workspace',
        path: '.council/workflows/plan-override.yaml',
        overrides: 'built-in workflows/plan.yaml',
      });
      assert.deepEqual(catalog.get('review')?.source, { kind: 'workspace', path: '.council/workflows/review.yml' });
      // What a /plan run here starts with, before it spends anything (deepWorkTurn streams it first).
      assert.equal(
        overrideNotice(plan!),
        "This run uses the workspace's `.council/workflows/plan-override.yaml`, which replaces the built-in `plan` workflow (built-in workflows/plan.yaml): its phases, agents and scripts run instead of Council's.",
      );
      assert.equal(overrideNotice(catalog.get('review')!), undefined);
      assert.equal(catalog.workflows.filter(workflow => workflow.name === 'plan').length, 1);
    });

    it('reports a malformed file with its path, line and field, and the second file defining `plan`, while the others load', async () => {
      const catalog = await loadWorkflows(extensionUri, KNOWN_TYPES);
      assert.ok(catalog.get('review') && catalog.get('plan'));
      assert.equal(catalog.get('broken-flow'), undefined);
      const broken = catalog.problems.find(problem => problem.source.path === '.council/workflows/broken.yaml');
      assert.ok(broken, describeWorkflowProblems(catalog.problems));
      const issue = broken.issues.find(candidate => candidate.field === 'phases[0].behavior');
      assert.ok(issue, describeWorkflowProblems([broken]));
      assert.equal(issue.line, 8);
      assert.match(
        describeWorkflowProblems([broken]),
        /^\.council\/workflows\/broken\.yaml:8: `phases\[0\]\.behavior`: /m,
      );
      const duplicate = catalog.problems.find(
        problem => problem.source.path === '.council/workflows/plan-override2.yaml',
      );
      assert.ok(duplicate, describeWorkflowProblems(catalog.problems));
      assert.deepEqual(
        duplicate.issues.map(candidate => [candidate.field, candidate.line]),
        [['name', 1]],
      );
      assert.match(duplicate.issues[0]?.message ?? '', /also defines workflow `plan`.*rename one/);
      assert.equal(catalog.problems.length, 4, describeWorkflowProblems(catalog.problems));
    });
  });

  describe('the commands', () => {
    const createdName = 'test-created-flow';
    const created = () => vscode.Uri.joinPath(workflowsFolder!, `${createdName}.yaml`);

    before(async function () {
      if (!workflowsFolder || !vscode.workspace.isTrusted) this.skip();
      // Until activate() registers them, register here; afterwards the extension's own registration is used.
      const commands = await vscode.commands.getCommands(true);
      if (!commands.includes(WORKFLOW_COMMAND.create)) {
        registered = registerWorkflowCommands(() => loadWorkflows(extensionUri, KNOWN_TYPES));
      }
    });
    after(async () => {
      if (workflowsFolder) await vscode.workspace.fs.delete(created()).then(undefined, () => undefined);
    });

    it('createWorkflow writes .council/workflows/<name>.yaml from the template, opens it, and the catalogue loads it', async () => {
      const result = await vscode.commands.executeCommand<CreateWorkflowResult>(WORKFLOW_COMMAND.create, {
        name: createdName,
      });
      assert.ok(result && 'created' in result, JSON.stringify(result));
      assert.equal(result.created.toString(), created().toString());
      assert.match(
        decoder.decode(await vscode.workspace.fs.readFile(created())),
        new RegExp(`^name: ${createdName}\\b`, 'm'),
      );
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), created().toString());
      const catalog = await loadWorkflows(extensionUri, KNOWN_TYPES);
      assert.deepEqual(
        catalog.get(createdName)?.source,
        { kind: 'workspace', path: `.council/workflows/${createdName}.yaml` },
        describeWorkflowProblems(catalog.problems),
      );
    });

    it('createWorkflow never overwrites an existing file, and refuses a name that is not kebab-case', async () => {
      await vscode.workspace.fs.writeFile(created(), encoder.encode('# mine\n'));
      const exists = await vscode.commands.executeCommand<CreateWorkflowResult>(WORKFLOW_COMMAND.create, {
        name: createdName,
      });
      assert.ok(exists && 'refused' in exists, JSON.stringify(exists));
      assert.equal(exists.refused, 'exists');
      assert.match(exists.message ?? '', /test-created-flow\.yaml already exists; Council will not overwrite it/);
      assert.equal(decoder.decode(await vscode.workspace.fs.readFile(created())), '# mine\n');

      const invalid = await vscode.commands.executeCommand<CreateWorkflowResult>(WORKFLOW_COMMAND.create, {
        name: 'Code Review',
      });
      assert.ok(invalid && 'refused' in invalid, JSON.stringify(invalid));
      assert.equal(invalid.refused, 'invalidName');
      assert.match(invalid.message ?? '', /Try `code-review`/);
    });

    it('runWorkflow with an unknown name opens no chat and resolves with nothing', async () => {
      const result = await vscode.commands.executeCommand(WORKFLOW_COMMAND.run, {
        name: 'no-such-workflow',
        goal: 'anything',
      });
      assert.equal(result, undefined);
    });
  });

  describe('WorkspaceRunOutputs', () => {
    const runFolder = '.council/runs/test-outputs-run';
    let runs: vscode.Uri;
    let runsExisted = false;

    before(async function () {
      if (!folder) this.skip();
      runs = vscode.Uri.joinPath(folder.uri, '.council', 'runs');
      runsExisted = await vscode.workspace.fs.stat(runs).then(
        () => true,
        () => false,
      );
    });
    after(async () => {
      if (!folder) return;
      const target = runsExisted ? vscode.Uri.joinPath(folder.uri, ...runFolder.split('/')) : runs;
      await vscode.workspace.fs.delete(target, { recursive: true }).then(undefined, () => undefined);
    });

    it('writes under the run folder with vscode.workspace.fs and reads back; a missing file reads as undefined', async () => {
      const outputs = new WorkspaceRunOutputs(runFolder);
      const written = await outputs.write('notes/summary.md', '# Summary\nété\n');
      assert.deepEqual(written, {
        path: `${runFolder}/notes/summary.md`,
        sizeBytes: encoder.encode('# Summary\nété\n').length,
      });
      const onDisk = decoder.decode(
        await vscode.workspace.fs.readFile(
          vscode.Uri.joinPath(folder!.uri, ...runFolder.split('/'), 'notes', 'summary.md'),
        ),
      );
      assert.equal(onDisk, '# Summary\nété\n');
      assert.equal(await outputs.read('notes/summary.md'), '# Summary\nété\n');
      assert.equal(await outputs.read(`${runFolder}/notes/summary.md`), '# Summary\nété\n');
      assert.equal(await outputs.read('missing.md'), undefined);
      await outputs.write('notes/summary.md', 'replaced');
      assert.equal(await outputs.read('notes/summary.md'), 'replaced');
    });

    it('refuses to write through a symbolic link on the way (workspace.fs would follow it out of the workspace)', async () => {
      // A file system whose `.council/runs` is a link, as a cloned repository can make it.
      const written: string[] = [];
      const provider: vscode.FileSystemProvider = {
        onDidChangeFile: new vscode.EventEmitter<vscode.FileChangeEvent[]>().event,
        watch: () => new vscode.Disposable(() => undefined),
        stat: uri => {
          const path = uri.path.replace(/^\/root\/?/, '');
          if (path === '.council') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
          if (path === '.council/runs')
            return { type: vscode.FileType.Directory | vscode.FileType.SymbolicLink, ctime: 0, mtime: 0, size: 0 };
          throw vscode.FileSystemError.FileNotFound(uri);
        },
        readDirectory: () => [],
        createDirectory: () => undefined,
        readFile: uri => {
          throw vscode.FileSystemError.FileNotFound(uri);
        },
        writeFile: uri => void written.push(uri.path),
        delete: () => undefined,
        rename: () => undefined,
      };
      const registration = vscode.workspace.registerFileSystemProvider('council-linktest', provider);
      try {
        const root = vscode.Uri.parse('council-linktest:/root');
        const outputs = new WorkspaceRunOutputs(runFolder, { uri: root, name: 'linked', index: 0 });
        await assert.rejects(
          outputs.write('notes/summary.md', 'x'),
          /Refused to write `\.council\/runs\/test-outputs-run\/notes\/summary\.md`: `\.council\/runs` is a symbolic link/,
        );
        assert.deepEqual(written, [], 'nothing was written');
      } finally {
        registration.dispose();
      }
    });

    it('refuses ../x and absolute paths, writing nothing', async () => {
      const outputs = new WorkspaceRunOutputs(runFolder);
      await assert.rejects(outputs.write('../x', 'escaped'), ActionableError);
      await assert.rejects(outputs.write('/etc/x', 'escaped'), ActionableError);
      await assert.rejects(outputs.read('../../x'), ActionableError);
      const escaped = await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder!.uri, '.council', 'runs', 'x')).then(
        () => true,
        () => false,
      );
      assert.equal(escaped, false);
    });
  });

  it('loadSandboxWasm reads dist/quickjs.wasm from the extension once', async () => {
    const load = loadSandboxWasm(extensionUri);
    const bytes = await load();
    assert.deepEqual([...bytes.slice(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'not a WebAssembly module');
    assert.equal(await load(), bytes);
  });
});
