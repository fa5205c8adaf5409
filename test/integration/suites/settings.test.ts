import * as vscode from 'vscode';
import * as assert from '../assert';
import { COST_SETTINGS, COUNCIL_SECTION, readCouncilSettings, SETTING } from '../../../src/vscode/settings';
import { councilExtension } from '../harness';

type SettingKey = (typeof SETTING)[keyof typeof SETTING];

/** Writes user settings, runs `body`, and always removes them again. */
async function withUserSettings(
  values: Partial<Record<SettingKey, unknown>>,
  body: () => void | Promise<void>,
): Promise<void> {
  const configuration = () => vscode.workspace.getConfiguration(COUNCIL_SECTION);
  const keys = Object.keys(values) as SettingKey[];
  try {
    for (const key of keys) await configuration().update(key, values[key], vscode.ConfigurationTarget.Global);
    await body();
  } finally {
    for (const key of keys) await configuration().update(key, undefined, vscode.ConfigurationTarget.Global);
  }
}

describe('settings: council.* in a real VS Code', () => {
  it('declares every setting the reader uses in package.json, admin maximum machine-scoped', async () => {
    const extension = await councilExtension();
    const properties = (
      extension.packageJSON as { contributes: { configuration: { properties: Record<string, { scope?: string }> } } }
    ).contributes.configuration.properties;
    assert.deepEqual(
      Object.keys(properties).sort(),
      Object.values(SETTING)
        .map(key => `${COUNCIL_SECTION}.${key}`)
        .sort(),
    );
    assert.equal(properties[`${COUNCIL_SECTION}.${SETTING.adminMaxCycles}`]?.scope, 'machine');
  });

  it('every setting that changes what Council spends is restricted in untrusted workspaces', async () => {
    const manifest = (await councilExtension()).packageJSON as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
    };
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of COST_SETTINGS) assert.ok(restricted.includes(`${COUNCIL_SECTION}.${key}`), key);
    // Any budget, price or model setting added later is a cost setting too.
    for (const key of Object.values(SETTING).filter(k => /^(budget|pricing|models|debate)\./.test(k)))
      assert.ok(COST_SETTINGS.includes(key) || key === SETTING.adminMaxCycles, `${key} is missing from COST_SETTINGS`);
  });

  it('reads prices and refuses a malformed one, naming it', () =>
    withUserSettings({ [SETTING.prices]: { good: { input: 1, output: 2 }, bad: { input: -1 }, free: 0 } }, () => {
      const settings = readCouncilSettings();
      assert.deepEqual(settings.spending.prices, { good: { input: 1, output: 2 }, free: 0 });
      assert.match(settings.problems.join('\n'), /council\.pricing\.models: the price of "bad" must be 0 or/);
    }));

  it('reads the defaults when nothing is configured', () => {
    assert.deepEqual(readCouncilSettings(), {
      limits: { maxClarificationRounds: 3, debateCycleLimit: 10, adminMaxDebateCycles: 10 },
      defaultPersonaIds: [],
      useWorkspacePersonas: true,
      groundInWorkspace: false,
      protocol: 'economy',
      spending: {
        session: { maxCredits: 40, maxRequests: 12 },
        run: { maxCredits: 100, maxRequests: 60 },
        script: { maxModelCalls: 20, maxTokens: 200_000, maxHostCalls: 5_000 },
        prices: {},
      },
      personaModel: '',
      synthesisModel: '',
      diverseModels: false,
      defaultModel: '',
      decisionsFolder: '',
      problems: [],
    });
  });

  it('reads changed values from user settings', () =>
    withUserSettings(
      {
        [SETTING.maxRounds]: 2,
        [SETTING.maxCycles]: 4,
        [SETTING.adminMaxCycles]: 12,
        [SETTING.defaultPersonas]: ['senior-developer', 'security-expert'],
        [SETTING.useWorkspacePersonas]: false,
        [SETTING.groundInWorkspace]: true,
        [SETTING.protocol]: 'thorough',
        [SETTING.maxRequests]: 0,
        [SETTING.maxCredits]: 2.5,
        [SETTING.runMaxCredits]: 0,
        [SETTING.prices]: { 'council-test-model': { input: 1, output: 4 }, local: 0 },
        [SETTING.personaModel]: ' council-test/council-test-plain ',
        [SETTING.synthesisModel]: 'council-test-model',
        [SETTING.diverseModels]: true,
        [SETTING.defaultModel]: 'copilot/gpt-5-mini',
        [SETTING.decisionsFolder]: 'doc/architecture',
      },
      () => {
        assert.deepEqual(readCouncilSettings(), {
          limits: { maxClarificationRounds: 2, debateCycleLimit: 4, adminMaxDebateCycles: 12 },
          defaultPersonaIds: ['senior-developer', 'security-expert'],
          useWorkspacePersonas: false,
          groundInWorkspace: true,
          protocol: 'thorough',
          spending: {
            session: { maxCredits: 2.5, maxRequests: undefined },
            run: { maxCredits: undefined, maxRequests: 60 },
            script: { maxModelCalls: 20, maxTokens: 200_000, maxHostCalls: 5_000 },
            prices: { 'council-test-model': { input: 1, output: 4 }, local: 0 },
          },
          personaModel: 'council-test/council-test-plain',
          synthesisModel: 'council-test-model',
          diverseModels: true,
          defaultModel: 'copilot/gpt-5-mini',
          decisionsFolder: 'doc/architecture',
          problems: [],
        });
      },
    ));

  it('clamps bad values and says what it fixed', () =>
    withUserSettings(
      {
        [SETTING.maxRounds]: 7,
        [SETTING.maxCycles]: 25,
        [SETTING.adminMaxCycles]: 0,
        [SETTING.defaultPersonas]: ['qa-engineer', 'Security Expert', 5, 'qa-engineer'],
        [SETTING.useWorkspacePersonas]: 'yes',
        [SETTING.protocol]: 'fast',
        [SETTING.maxRequests]: 2.5,
        [SETTING.personaModel]: 42,
      },
      () => {
        const settings = readCouncilSettings();
        assert.deepEqual(settings.limits, { maxClarificationRounds: 3, debateCycleLimit: 1, adminMaxDebateCycles: 1 });
        assert.deepEqual(settings.defaultPersonaIds, ['qa-engineer']);
        assert.equal(settings.useWorkspacePersonas, true);
        assert.deepEqual(settings.problems, [
          'council.clarification.maxRounds must be a whole number between 1 and 3, got 7; using 3.',
          'council.debate.adminMaxCycles must be a whole number at least 1, got 0; using 1.',
          'council.debate.maxCycles is 25, above council.debate.adminMaxCycles (1); using 1.',
          'council.personas.default: "Security Expert" is not a persona id such as "security-expert"; ignoring it.',
          'council.personas.default: 5 is not a persona id such as "security-expert"; ignoring it.',
          'council.personas.useWorkspacePersonas must be true or false, got "yes"; using true.',
          'council.debate.protocol must be one of "economy", "thorough", got "fast"; using "economy".',
          'council.budget.maxRequests must be a whole number at least 0, got 2.5; using 3.',
          'council.models.personas must be text such as "copilot/gpt-4.1", got 42; using the chat\'s model.',
        ]);
        assert.equal(settings.protocol, 'economy');
        assert.equal(settings.spending.session.maxRequests, 3);
      },
    ));

  it('lowers debate.maxCycles to the admin maximum instead of raising the maximum', () =>
    withUserSettings({ [SETTING.maxCycles]: 30, [SETTING.adminMaxCycles]: 20, [SETTING.maxRounds]: 'two' }, () => {
      const settings = readCouncilSettings();
      assert.deepEqual(settings.limits, { maxClarificationRounds: 3, debateCycleLimit: 20, adminMaxDebateCycles: 20 });
      assert.deepEqual(settings.problems, [
        'council.clarification.maxRounds must be a whole number, got "two"; using 3.',
        'council.debate.maxCycles is 30, above council.debate.adminMaxCycles (20); using 20.',
      ]);
    }));

  it('does not let a workspace raise debate.adminMaxCycles', async function () {
    if (!vscode.workspace.workspaceFolders?.length) this.skip(); // workspace settings need an open folder
    const configuration = vscode.workspace.getConfiguration(COUNCIL_SECTION);
    await assert.rejects(async () =>
      configuration.update(SETTING.adminMaxCycles, 50, vscode.ConfigurationTarget.Workspace),
    );
    assert.equal(readCouncilSettings().limits.adminMaxDebateCycles, 10);
  });
});
