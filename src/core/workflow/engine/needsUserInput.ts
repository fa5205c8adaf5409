/** The context manager could not resolve a loop from the history and asks the user one question. */
export class NeedsUserInput extends Error {
  constructor(
    readonly question: string,
    readonly reason: string,
  ) {
    super(question);
    this.name = 'NeedsUserInput';
  }
}
