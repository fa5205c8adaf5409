import * as vscode from 'vscode';
import * as assert from '../assert';
import { parsePersonaFile } from '../../../src/core/personas/parse';
import { loadPersonas } from '../../../src/core/personas/registry';
import {
  PERSONA_COMMAND,
  registerPersonaCommands,
  type CreatePersonaResult,
} from '../../../src/vscode/personas/personaCommands';
import {
  builtInPersonaSource,
  loadCouncilPersonas,
  workspacePersonaSource,
} from '../../../src/vscode/personas/personaSource';
import { councilExtension } from '../harness';

const decoder = new TextDecoder();

/** The open workspace folder when it is the fixture workspace (runWeb.mjs opens test/integration/workspace). */
async function fixtureWorkspace(): Promise<vscode.WorkspaceFolder | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  try {
    await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, '.council', 'personas', 'broken.md'));
    return folder;
  } catch {
    return undefined;
  }
}

describe('personas: built-in and workspace sources in a real VS Code', () => {
  let extensionUri: vscode.Uri;
  before(async () => {
    extensionUri = (await councilExtension()).extensionUri;
  });

  it('reads the 8 built-in personas from the extension with vscode.workspace.fs', async () => {
    const files = await builtInPersonaSource(extensionUri).list();
    assert.equal(files.length, 8);
    assert.ok(
      files.every(file => /^personas\/[a-z-]+\.md$/.test(file.path)),
      files.map(file => file.path).join(', '),
    );
    const registry = await loadPersonas({ builtIn: builtInPersonaSource(extensionUri) });
    assert.deepEqual(registry.problems, []);
    assert.deepEqual(
      registry.personas.map(persona => persona.id),
      [
        'devils-advocate',
        'devops-engineer',
        'performance-engineer',
        'product-manager',
        'qa-engineer',
        'security-expert',
        'senior-developer',
        'software-architect',
      ],
    );
  });

  describe('in the fixture workspace', () => {
    let folder: vscode.WorkspaceFolder;
    before(async function () {
      const found = await fixtureWorkspace();
      if (!found) this.skip();
      folder = found;
    });

    it('overrides a built-in with the workspace file and reports the malformed one by path and field', async () => {
      assert.equal(vscode.workspace.isTrusted, true);
      const registry = await loadCouncilPersonas(extensionUri, { useWorkspacePersonas: true });
      assert.equal(registry.personas.length, 8);
      const security = registry.personas.find(persona => persona.id === 'security-expert');
      assert.equal(security?.origin, 'workspace');
      assert.equal(security?.path, '.council/personas/security-expert.md');
      assert.match(security?.instructions ?? '', /TEST-WORKSPACE-OVERRIDE/);
      assert.ok(
        registry.personas
          .filter(persona => persona.id !== 'security-expert')
          .every(persona => persona.origin === 'builtIn'),
      );
      assert.equal(registry.problems.length, 1);
      const [problem] = registry.problems;
      assert.ok(problem?.kind === 'invalidFile');
      assert.equal(problem.path, '.council/personas/broken.md');
      assert.equal(problem.field, 'cognitiveMode');
      assert.match(problem.message, /^\.council\/personas\/broken\.md: field "cognitiveMode"/);
    });

    it('reads at most 50 persona files and says so; a file over the size limit is refused from its size', async () => {
      const folderUri = vscode.Uri.joinPath(folder.uri, '.council', 'personas');
      const extra: vscode.Uri[] = [];
      const encoder = new TextEncoder();
      for (let n = 0; n < 50; n++) {
        const uri = vscode.Uri.joinPath(folderUri, `zz-${String(n).padStart(2, '0')}.md`);
        await vscode.workspace.fs.writeFile(uri, encoder.encode(`---\nid: zz-${n}\n---\nx\n`));
        extra.push(uri);
      }
      const huge = vscode.Uri.joinPath(folderUri, 'aa-huge.md');
      await vscode.workspace.fs.writeFile(huge, encoder.encode(`---\nid: huge\n---\n${'x'.repeat(200_000)}\n`));
      extra.push(huge);
      try {
        const registry = await loadCouncilPersonas(extensionUri, { useWorkspacePersonas: true });
        const messages = registry.problems.map(problem => problem.message);
        assert.ok(
          messages.some(m =>
            /^\.council\/personas: the folder has 5\d persona files; only the first 50 by name are read/.test(m),
          ),
          messages.join('\n'),
        );
        assert.ok(
          messages.some(m =>
            /^\.council\/personas\/aa-huge\.md: the file is 195 KB; a persona may have at most 32,000 characters/.test(
              m,
            ),
          ),
          messages.join('\n'),
        );
        assert.equal(registry.personas.find(persona => persona.id === 'security-expert')?.origin, 'workspace');
      } finally {
        for (const uri of extra) await vscode.workspace.fs.delete(uri);
      }
    });

    it('lists no workspace personas when council.personas.useWorkspacePersonas is off', async () => {
      assert.deepEqual(await workspacePersonaSource({ useWorkspacePersonas: false }).list(), []);
      const registry = await loadCouncilPersonas(extensionUri, { useWorkspacePersonas: false });
      assert.deepEqual(registry.problems, []);
      assert.ok(registry.personas.every(persona => persona.origin === 'builtIn'));
    });

    it('lists nothing (and reports nothing) when the folder has no .council/personas', async () => {
      const personas = vscode.Uri.joinPath(folder.uri, '.council', 'personas');
      const away = vscode.Uri.joinPath(folder.uri, '.council', 'personas-away');
      await vscode.workspace.fs.rename(personas, away); // in-memory mount: the files on disk are untouched
      try {
        assert.deepEqual(await workspacePersonaSource({ useWorkspacePersonas: true }).list(), []);
      } finally {
        await vscode.workspace.fs.rename(away, personas);
      }
    });
  });
});

describe('persona commands in a real VS Code', () => {
  let registered: vscode.Disposable[] = [];
  let folder: vscode.WorkspaceFolder;
  const created = () => vscode.Uri.joinPath(folder.uri, '.council', 'personas', 'database-administrator.md');

  before(async function () {
    const found = await fixtureWorkspace();
    if (!found) this.skip();
    folder = found;
    await councilExtension();
    // Until activate() registers them, register here; afterwards the extension's own registration is used.
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes(PERSONA_COMMAND.create)) registered = registerPersonaCommands({ subscriptions: [] });
  });
  after(async () => {
    for (const disposable of registered) disposable.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) await vscode.workspace.fs.delete(created()).then(undefined, () => undefined);
  });

  it('createPersona writes a valid persona file, opens it, and the registry loads it', async () => {
    const result = await vscode.commands.executeCommand<CreatePersonaResult>(PERSONA_COMMAND.create, {
      name: 'Database Administrator',
    });
    assert.ok(result && 'created' in result, JSON.stringify(result));
    assert.equal(result.created.toString(), created().toString());
    const text = decoder.decode(await vscode.workspace.fs.readFile(result.created));
    const parsed = parsePersonaFile('.council/personas/database-administrator.md', text);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
    assert.equal(parsed.persona.id, 'database-administrator');
    assert.equal(parsed.persona.name, 'Database Administrator');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), created().toString());

    const registry = await loadCouncilPersonas((await councilExtension()).extensionUri, { useWorkspacePersonas: true });
    assert.equal(registry.personas.find(persona => persona.id === 'database-administrator')?.origin, 'workspace');
  });

  it('createPersona refuses to overwrite an existing file', async () => {
    const before = decoder.decode(
      await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, '.council', 'personas', 'security-expert.md')),
    );
    const result = await vscode.commands.executeCommand<CreatePersonaResult>(PERSONA_COMMAND.create, {
      name: 'Security Expert',
    });
    assert.deepEqual(result && 'refused' in result ? result.refused : result, 'exists');
    assert.match(
      (result as { message?: string }).message ?? '',
      /\.council\/personas\/security-expert\.md already exists/,
    );
    const after = decoder.decode(
      await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, '.council', 'personas', 'security-expert.md')),
    );
    assert.equal(after, before);
  });

  it('createPersona refuses a name that gives no id', async () => {
    const result = await vscode.commands.executeCommand<CreatePersonaResult>(PERSONA_COMMAND.create, {
      name: '  !!!  ',
    });
    assert.deepEqual(result && 'refused' in result ? result.refused : result, 'invalidName');
  });

  it('openPersonaFolder reveals the existing .council/personas', async () => {
    const revealed = await vscode.commands.executeCommand<vscode.Uri | undefined>(PERSONA_COMMAND.openFolder);
    assert.equal(revealed?.toString(), vscode.Uri.joinPath(folder.uri, '.council', 'personas').toString());
  });
});
