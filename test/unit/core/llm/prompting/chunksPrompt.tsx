import {
  AssistantMessage,
  PromptElement,
  TextChunk,
  UserMessage,
  type BasePromptElementProps,
} from '@vscode/prompt-tsx';

/** Props of {@link Chunks}. */
export interface ChunksProps extends BasePromptElementProps {
  /** Each chunk is 400 characters = 100 tokens; later chunks have lower priority. */
  readonly chunks: number;
}

/** A test prompt of equal-sized chunks with falling priority, followed by an assistant message. */
export class Chunks extends PromptElement<ChunksProps> {
  override render() {
    const chunks = Array.from({ length: this.props.chunks }, (_, i) => (
      <TextChunk priority={100 - i}>{String(i).padEnd(400, '.')}</TextChunk>
    ));
    return (
      <>
        <UserMessage priority={10}>{chunks}</UserMessage>
        <AssistantMessage priority={20}>Understood.</AssistantMessage>
      </>
    );
  }
}
