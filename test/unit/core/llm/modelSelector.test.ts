import assert from 'node:assert/strict';
import { chooseModel, pickModel, type ModelDescriptor } from '../../../../src/core/llm/modelSelector';

const GPT: ModelDescriptor = { id: 'gpt-4.1-2025', vendor: 'copilot', family: 'gpt-4.1', name: 'GPT-4.1' };
const CLAUDE: ModelDescriptor = {
  id: 'claude-sonnet-4',
  vendor: 'copilot',
  family: 'claude-sonnet-4',
  name: 'Claude Sonnet 4',
};
const LOCAL: ModelDescriptor = { id: 'gpt-4.1', vendor: 'ollama', family: 'llama', name: 'Local' };
const AVAILABLE = [GPT, CLAUDE, LOCAL];

describe('model selectors', () => {
  it('name a model by vendor/family, by id or by family, in any case; an exact id wins over a family', () => {
    assert.equal(pickModel('copilot/gpt-4.1', AVAILABLE), GPT);
    assert.equal(pickModel('COPILOT/Claude-Sonnet-4', AVAILABLE), CLAUDE);
    assert.equal(pickModel('gpt-4.1', AVAILABLE), LOCAL, 'the id gpt-4.1 is an exact match');
    assert.equal(pickModel('claude-sonnet-4', AVAILABLE), CLAUDE);
    assert.equal(pickModel('openai/gpt-4.1', AVAILABLE), undefined, 'the vendor must match');
    assert.equal(pickModel('  ', AVAILABLE), undefined);
  });

  it('choose the first available wish, and say which were not available and what is used instead', () => {
    assert.deepEqual(chooseModel([], AVAILABLE, GPT, 'Security Expert'), { model: GPT });
    assert.deepEqual(
      chooseModel(
        [{ selector: 'claude-sonnet-4', source: "Security Expert's `model:`" }],
        AVAILABLE,
        GPT,
        'Security Expert',
      ),
      { model: CLAUDE },
    );
    assert.deepEqual(
      chooseModel(
        [
          { selector: 'o3', source: "Security Expert's `model:`" },
          { selector: 'claude-sonnet-4', source: '`council.models.personas`' },
        ],
        AVAILABLE,
        GPT,
        'Security Expert',
      ),
      {
        model: CLAUDE,
        note: "`o3` (Security Expert's `model:`) is not available; Security Expert uses Claude Sonnet 4 instead.",
      },
    );
    assert.deepEqual(
      chooseModel([{ selector: 'o3', source: '`council.models.synthesis`' }], [], GPT, 'The consolidated answer'),
      {
        model: GPT,
        note: "`o3` (`council.models.synthesis`) is not available; The consolidated answer uses GPT-4.1, the chat's model.",
      },
    );
  });
});
