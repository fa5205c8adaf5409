import { PromptElement, TextChunk, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { Contribution } from '../contributors/promptContributor';
import { Contributions } from './contributions';
import { PIPELINE_DATA_NOTICE, PipelineSection } from './pipelineSection';

/** One data section of an agent prompt. */
export interface AgentPromptSection {
  readonly title: string;
  readonly body: string;
  /** Fence name for untrusted data; omit for trusted text we wrote. */
  readonly source?: string;
  /** prompt-tsx priority: lower is pruned first under a tight budget. */
  readonly priority: number;
}

/** Props of {@link AgentPrompt}. */
export interface AgentPromptProps extends BasePromptElementProps {
  /** The agent's role and task, in our words (never pruned). */
  readonly instructions: readonly string[];
  readonly sections: readonly AgentPromptSection[];
  readonly contributions: readonly Contribution[];
}

/**
 * The frame every pipeline prompt shares: instructions and the data notice first, then the data sections
 * (each fenced, pruned by priority), then prompt contributions. Instructions sit in a UserMessage because
 * vscode.lm drops system messages.
 */
export class AgentPrompt extends PromptElement<AgentPromptProps> {
  override render() {
    const { instructions, sections, contributions } = this.props;
    return (
      <>
        <UserMessage priority={2000}>
          <TextChunk priority={2000}>
            {instructions.join('\n')}
            {'\n\n'}
            {PIPELINE_DATA_NOTICE}
          </TextChunk>
          {sections.map(section => (
            <PipelineSection
              priority={section.priority}
              title={section.title}
              body={section.body}
              {...(section.source === undefined ? {} : { source: section.source })}
            />
          ))}
        </UserMessage>
        <Contributions priority={500} contributions={contributions} />
      </>
    );
  }
}
