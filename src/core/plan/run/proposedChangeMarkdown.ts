import type { ProposedChange } from '../schemas/tickets';

/** A fence longer than any backtick run in `text`, so content cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map(m => m[0].length));
  return '`'.repeat(longest + 1);
}

function block(language: string, text: string): string {
  const f = fence(text);
  return `${f}${language}\n${text.replace(/\n$/, '')}\n${f}`;
}

function languageOf(path: string): string {
  return /\.([A-Za-z0-9]+)$/.exec(path)?.[1] ?? '';
}

/** One proposed change as Markdown: new files as code blocks, range edits as diffs, deletions as a line. */
export function proposedChangeMarkdown(change: ProposedChange): string {
  const heading = `#### ${change.kind} \`${change.path}\`\n\n${change.rationale}\n\n`;
  switch (change.kind) {
    case 'create':
      return heading + block(languageOf(change.path), change.content);
    case 'delete':
      return `${heading}The file is deleted.`;
    case 'modify':
      if (change.edit.mode === 'full_content')
        return `${heading}New content:\n\n${block(languageOf(change.path), change.edit.content)}`;
      return (
        heading +
        block(
          'diff',
          [
            `--- a/${change.path}`,
            `+++ b/${change.path}`,
            ...change.edit.replacements.flatMap(r => {
              const added = r.newText === '' ? [] : r.newText.replace(/\n$/, '').split('\n');
              return [
                `@@ -${r.startLine},${r.endLine - r.startLine + 1} +${r.startLine},${added.length} @@ (lines ${r.startLine}-${r.endLine} replaced)`,
                ...added.map(line => `+${line}`),
              ];
            }),
          ].join('\n'),
        )
      );
  }
}
