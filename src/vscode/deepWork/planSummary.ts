import { untrusted } from '../../core/council/wording/markdown';
import type { PipelineStage } from '../../core/plan/schemas/agentType';
import { lastCompletedStage, type PipelineBoard } from '../../core/plan/pipelineBoard';
import { STAGE_NAME } from '../../core/deepWork/planProgress';

/** Model output as one line of Markdown text. */
export function oneLine(text: string): string {
  return untrusted(text).replace(/\s*\n\s*/g, ' ');
}

/** What a stopped run kept, as one sentence (`mark` emphasizes the stage's name in Markdown). */
export function savedProgress(board: PipelineBoard, mark = ''): string {
  const stage = lastCompletedStage(board);
  return stage ? `Progress up to ${mark}${STAGE_NAME[stage]}${mark} is saved.` : 'No stage was completed yet.';
}

/** A short Markdown summary of a completed stage (model output shown as text, never as links or commands). */
export function stageSummaryMarkdown(board: PipelineBoard, stage: PipelineStage): string {
  const { discovery, planning, tickets } = board.stages;
  switch (stage) {
    case 'discovery': {
      if (!discovery) return '';
      const { modules } = discovery.result.unifiedCodeMap;
      const recommendations = discovery.result.recommendations;
      return [
        `**Discovery** mapped ${modules.length} module${modules.length === 1 ? '' : 's'} and made ${recommendations.length} recommendation${recommendations.length === 1 ? '' : 's'}:`,
        '',
        ...recommendations.map(r => `- **${r.recommendationId}** (${r.priority}): ${oneLine(r.title)}`),
      ].join('\n');
    }
    case 'planning': {
      if (!planning) return '';
      const list = planning.result.finalizedTickets;
      return [
        `**Planning** wrote ${list.length} ticket${list.length === 1 ? '' : 's'}:`,
        '',
        ...list.map(
          t =>
            `- **${t.ticketId}**: ${oneLine(t.title)}${t.dependencies.length ? ` (after ${t.dependencies.join(', ')})` : ''}`,
        ),
      ].join('\n');
    }
    case 'tickets': {
      if (!tickets) return '';
      const results = tickets.agentResults;
      return [
        `**Tickets**: ${results.length} implementation proposal${results.length === 1 ? '' : 's'}:`,
        '',
        ...results.map(
          r =>
            `- **${r.ticketId}** (${r.verificationStatus}): ${r.proposedChanges.length} proposed change${r.proposedChanges.length === 1 ? '' : 's'}`,
        ),
      ].join('\n');
    }
  }
}
