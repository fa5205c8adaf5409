import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { councilMcpServer, type McpServerOptions } from './councilMcpServer';

/** Serves Council's tools on stdin/stdout until the client closes the connection. */
export async function serveMcp(options: McpServerOptions): Promise<void> {
  const server = councilMcpServer(options);
  const closed = new Promise<void>(done => (server.onclose = done));
  await server.connect(new StdioServerTransport());
  await closed;
}
