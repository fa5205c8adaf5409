/**
 * An in-memory stand-in for `vscode.Memento` (workspace state): values go through JSON on the way in, as
 * VS Code stores them, and `undefined` deletes.
 */
export class MemoryMemento {
  private readonly values = new Map<string, unknown>();

  /** A memento holding `entries` (key -> stored value), e.g. fixture files. */
  static of(entries: Readonly<Record<string, unknown>>): MemoryMemento {
    const memento = new MemoryMemento();
    for (const [key, value] of Object.entries(entries)) memento.values.set(key, JSON.parse(JSON.stringify(value)));
    return memento;
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }

  keys(): readonly string[] {
    return [...this.values.keys()];
  }

  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}
