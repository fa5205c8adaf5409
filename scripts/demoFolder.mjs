// The demo folder `npm start` opens: settings that turn on the fixture's demo council, and a tiny session-store
// module with its test for the council to talk about and for `/plan` to discover, plan and change.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The demo folder: something for the council to talk about and for `/plan` to discover, plan and change. */
const DEMO_FILES = {
  '.vscode/settings.json': `${JSON.stringify({ 'councilTest.demo': true }, undefined, 2)}\n`,
  'README.md': [
    '# Council demo',
    '',
    "A tiny web app's session store. Open the chat view (View > Chat, or Ctrl+Alt+I / Cmd+Ctrl+I), pick",
    '"Council Test Model" in the model picker, and ask `@council How should we store sessions?`;',
    'then try `@council /plan Make sessions revocable`.',
    '',
  ].join('\n'),
  'src/sessionStore.ts': [
    "import { randomUUID } from 'node:crypto';",
    '',
    "/** A user's session: who is logged in, since when. */",
    'export interface Session {',
    '  readonly userId: string;',
    '  readonly createdAt: number;',
    '}',
    '',
    "/** Sessions in this process's memory: lost on restart, not shared between instances, never expire. */",
    'export class SessionStore {',
    '  private readonly sessions = new Map<string, Session>();',
    '',
    '  create(userId: string, now = Date.now()): string {',
    '    const id = randomUUID();',
    '    this.sessions.set(id, { userId, createdAt: now });',
    '    return id;',
    '  }',
    '',
    '  get(id: string): Session | undefined {',
    '    return this.sessions.get(id);',
    '  }',
    '',
    '  destroy(id: string): void {',
    '    this.sessions.delete(id);',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/server.ts': [
    "import { SessionStore } from './sessionStore';",
    '',
    'export const sessions = new SessionStore();',
    '',
    '/** Logs a user in: the session id goes into a cookie. */',
    'export function login(userId: string): string {',
    '  return `sid=${sessions.create(userId)}; HttpOnly; Secure; SameSite=Lax`;',
    '}',
    '',
  ].join('\n'),
  'test/sessionStore.test.ts': [
    "import assert from 'node:assert/strict';",
    "import { SessionStore } from '../src/sessionStore';",
    '',
    "it('creates, reads and destroys a session', () => {",
    '  const store = new SessionStore();',
    "  const id = store.create('ada', 1);",
    "  assert.deepEqual(store.get(id), { userId: 'ada', createdAt: 1 });",
    '  store.destroy(id);',
    '  assert.equal(store.get(id), undefined);',
    '});',
    '',
  ].join('\n'),
};

/** A fresh folder whose workspace settings make the fixture's scripted models play the demo council. */
export function makeDemoFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'council-demo-'));
  for (const [path, text] of Object.entries(DEMO_FILES)) {
    mkdirSync(join(folder, dirname(path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}
