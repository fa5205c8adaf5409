/** Where the app keeps user sessions today: in memory, lost on restart (the page test's /plan works on this). */
export const sessions = new Map<string, { userId: string; expiresAt: number }>();

export function createSession(id: string, userId: string, ttlMs: number): void {
  sessions.set(id, { userId, expiresAt: Date.now() + ttlMs });
}
