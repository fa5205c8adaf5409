import * as assert from 'node:assert/strict';
import { chooseToolModel } from '../../../../src/core/llm/toolModelRule';
import { PriceBook } from '../../../../src/core/llm/spending/prices';

const model = (vendor: string, family: string, id = family, maxInputTokens = 128_000) => ({
  vendor,
  family,
  id,
  name: family.toUpperCase(),
  maxInputTokens,
});

const opus = model('copilot', 'claude-opus-4.7');
const mini = model('copilot', 'gpt-5-mini');
const sonnet = model('copilot', 'claude-sonnet-4.6');
const tiny = model('local', 'gemma-3-270m', 'gemma', 8_000);
const unknown = model('ollama', 'llama3');
const prices = new PriceBook();

describe('which model a Council tool runs on (a tool call carries none)', () => {
  it('council.models.default wins when available', () => {
    const got = chooseToolModel([opus, mini, sonnet], { setting: 'claude-sonnet-4.6', prices });
    assert.equal(got?.model, sonnet);
    assert.match(got?.reason ?? '', /council\.models\.default/);
  });

  it('else the model last used with @council (a newer id of the same family too), never the first listed', () => {
    const got = chooseToolModel([opus, mini, sonnet], {
      setting: '',
      lastUsed: { vendor: 'copilot', family: 'claude-sonnet-4.6', id: 'claude-sonnet-4.6-2026-01' },
      prices,
    });
    assert.equal(got?.model, sonnet);
    assert.match(got?.reason ?? '', /last used with `@council`/);
  });

  it('else the cheapest capable model by the price table, and the reason says how to choose', () => {
    const got = chooseToolModel([opus, tiny, sonnet, mini], { setting: '', prices });
    assert.equal(got?.model, mini, 'gpt-5-mini is the cheapest priced model with a debate-sized window');
    assert.match(got?.reason ?? '', /cheapest capable model by the price table .*council\.models\.default/);
  });

  it('a setting naming a model that is not there says so, then falls back', () => {
    const got = chooseToolModel([opus, mini], { setting: 'gpt-9', prices });
    assert.equal(got?.model, mini);
    assert.match(got?.reason ?? '', /names `gpt-9`, which is not available/);
  });

  it('known prices come before unknown ones; with none known, the first capable; with none at all, nothing', () => {
    assert.equal(chooseToolModel([unknown, opus], { setting: '', prices })?.model, opus);
    const onlyUnknown = chooseToolModel([tiny, unknown], { setting: '', prices });
    assert.equal(onlyUnknown?.model, unknown);
    assert.match(onlyUnknown?.reason ?? '', /no model has a known price/);
    assert.equal(chooseToolModel([], { setting: 'x', prices }), undefined);
  });
});
