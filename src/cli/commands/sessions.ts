import { transcriptMarkdown } from '../../core/council/wording/transcript';
import { SessionFiles, unusableMessage } from '../sessionFiles';
import { UsageError } from './usageError';

/** `council sessions [show|export <id>]`: the saved sessions, one, or one as Markdown. */
export async function sessions(args: readonly string[], project: string): Promise<number> {
  const files = new SessionFiles(project);
  // `export` prints the same Markdown transcript the extension exports (core/council/wording/transcript.ts).
  if (args[0] === 'show' || args[0] === 'export') {
    const id = args[1];
    if (!id) throw new UsageError(`council sessions ${args[0]} needs a session id (council sessions lists them).`);
    const found = await files.read(id);
    if (found.kind === 'missing') throw new UsageError(`No session ${id} in ${files.folderPath}.`);
    if (found.kind === 'damaged' || found.kind === 'newer') {
      process.stderr.write(`${unusableMessage(found)}\n`);
      return 1;
    }
    process.stdout.write(transcriptMarkdown(found.log.snapshot, found.log.stored.spending ?? []));
    return 0;
  }
  if (args.length > 0) throw new UsageError(`Unknown: council sessions ${args.join(' ')}`);
  const all = await files.list();
  if (all.length === 0) process.stdout.write('No council sessions saved in this folder yet.\n');
  for (const file of all) {
    const line =
      file.kind === 'found'
        ? `${file.sessionId}  ${file.log.snapshot.context.createdAt.slice(0, 16)}  ${file.log.state.padEnd(10)}  ${file.log.snapshot.context.requestText.replace(/\s+/g, ' ').slice(0, 70)}`
        : file.kind === 'missing'
          ? `${file.sessionId}  gone while the list was read`
          : `${file.sessionId}  ${unusableMessage(file)}`;
    process.stdout.write(`${line}\n`);
  }
  return 0;
}
