import { parseArgs } from 'node:util';
import { recordDecision } from '../recordDecision';
import { SessionFiles, unusableMessage } from '../sessionFiles';
import { confirmOnTerminal } from '../terminalPrompts';
import { UsageError } from './usageError';

/** Shows the record, then asks on the terminal whether to write it (no terminal and no --yes: never written). */
async function confirmRecord(draft: string, path: string, supersedes: string | undefined): Promise<boolean> {
  process.stdout.write(`${draft}\n`);
  if (process.stdin.isTTY !== true) {
    process.stderr.write('Not written: no terminal to confirm on. Run it again with --yes to write it.\n');
    return false;
  }
  return confirmOnTerminal(
    `\nWrite ${path} (status proposed)${supersedes ? ` and mark ${supersedes} superseded` : ''}?`,
  );
}

/** `council record <id>`: the session's decision as a record in the project's decision folder. */
export async function record(args: readonly string[], project: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { yes: { type: 'boolean' }, folder: { type: 'string' } },
  });
  const id = positionals[0];
  if (!id) throw new UsageError('council record needs a session id (council sessions lists them).');
  const files = new SessionFiles(project);
  const found = await files.read(id);
  if (found.kind === 'missing') throw new UsageError(`No session ${id} in ${files.folderPath}.`);
  if (found.kind === 'damaged' || found.kind === 'newer') {
    process.stderr.write(`${unusableMessage(found)}\n`);
    return 1;
  }
  const confirm = values.yes === true ? async () => true : confirmRecord;
  const outcome = await recordDecision(project, found.log, confirm, {
    ...(values.folder ? { folder: values.folder } : {}),
  });
  process.stderr.write(`${outcome.message}\n`);
  return outcome.written ? 0 : 1;
}
