import type { ReplyNormalizer } from '../llm/structuredOutput';
import {
  canonicalizeArray,
  canonicalIn,
  dedupeArray,
  dropField,
  isObject,
  isText,
  updateArray,
  type JsonObject,
} from '../llm/replyNormalizing';
import { OWN_VOTE, type CouncilNames } from './prompts/replies';
import { OTHER_OPTION, type DecisionOption } from '../session/decisionOptions';

/*
 * Deterministic fixes to the council's model replies, applied before validation where the intent is
 * clear, so a reply that breaks a rule the JSON Schema cannot state still becomes a valid session event.
 */

/** Where a persona stands when it speaks: what a contribution reply is checked against. */
export interface SpeakerTerms {
  readonly cycle: number;
  /** The speaking persona's name. */
  readonly self: string;
  /** The names of the other personas on the council. */
  readonly colleagues: CouncilNames;
  /** The speaker's position in the previous cycle, if it spoke. */
  readonly previousPosition?: string;
  /** The decision's options, when the opening named them. */
  readonly options?: readonly DecisionOption[];
}

/** Lower-case, single-spaced text, for comparing what models wrote. */
function loose(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A contribution made coherent: in cycle 1 nothing can have changed and no colleague has been read;
 * later, a reason without a change is dropped, a change without a reason says what it moved from, and
 * agreesWith keeps each colleague once (never the speaker, never a stranger).
 */
export function contributionNormalizer(terms: SpeakerTerms): ReplyNormalizer {
  return (reply, note) => {
    if (!isObject(reply)) return reply;
    if (terms.cycle <= 1) {
      if (reply.changedPosition === true) {
        reply.changedPosition = false;
        note('set changedPosition to false (the first cycle has no earlier position)');
      }
      dropField(reply, 'changeReason', 'the first cycle has no earlier position', note);
      if (Array.isArray(reply.agreesWith) && reply.agreesWith.length > 0) {
        reply.agreesWith = [];
        note('emptied agreesWith (in the first cycle no colleague has spoken yet)');
      }
    } else {
      coherentChange(reply, terms.previousPosition, note);
      const self = loose(terms.self);
      updateArray(reply, 'agreesWith', list =>
        list.filter(name => {
          const own = typeof name === 'string' && loose(name) === self;
          if (own) note("dropped the speaker's own name from agreesWith");
          return !own;
        }),
      );
      canonicalizeArray(reply, 'agreesWith', undefined, canonicalIn(terms.colleagues), 'colleague', note);
      dedupeArray(reply, 'agreesWith', undefined, 'colleague', note);
      canonicalVote(reply, terms, note);
    }
    dedupeArray(reply, 'concerns', undefined, 'concern', note);
    keyPointsFromArgument(reply, note);
    if (terms.options && terms.options.length > 0) canonicalOption(reply, terms.options, note);
    return reply;
  };
}

/**
 * The vote as one of the choices: a label in other case or spacing is that label; the speaker's own name (or
 * "mine") is its own position; no vote at all counts as backing its own position, which it still holds.
 */
function canonicalVote(reply: JsonObject, terms: SpeakerTerms, note: (change: string) => void): void {
  const vote = reply.vote;
  if (!isText(vote)) {
    reply.vote = OWN_VOTE;
    note('no vote: counted as backing its own position');
    return;
  }
  const wanted = loose(vote);
  if (wanted === OWN_VOTE) return;
  if (wanted === loose(terms.self) || ['mine', 'own', 'you', 'my position'].includes(wanted)) {
    reply.vote = OWN_VOTE;
    note(`read the vote "${vote}" as "${OWN_VOTE}"`);
    return;
  }
  const label = terms.colleagues.find(colleague => loose(colleague) === wanted);
  if (label !== undefined && label !== vote) {
    reply.vote = label;
    note(`respelled the vote "${vote}" as "${label}"`);
  }
}

/**
 * The option as one of the labels: 2, "Option 2" or the option's own text is that label; no option, or one that
 * names none of them, is "another answer" (the council then debates rather than counting a guess as agreement).
 */
function canonicalOption(reply: JsonObject, options: readonly DecisionOption[], note: (change: string) => void): void {
  const given = reply.option;
  if (given === OTHER_OPTION || options.some(o => o.label === given)) return;
  const wanted =
    typeof given === 'number' ? String(given) : isText(given) ? loose(given).replace(/^option\s+/, '') : undefined;
  const match = options.find(o => loose(o.label) === wanted || loose(o.option) === wanted);
  reply.option = match?.label ?? OTHER_OPTION;
  note(
    match
      ? `read the option "${String(given)}" as "${match.label}"`
      : `${isText(given) ? `the option "${given}" names none of the options` : 'no option'}: counted as "${OTHER_OPTION}"`,
  );
}

/** Key points the schema allows: at most this many, each at most this long. */
const KEY_POINTS = { count: 4, chars: 300 } as const;

/**
 * Key points are what later cycles and the answer read; a reply without them still says them, in its argument:
 * its first sentences stand in (cut to the schema's bounds) rather than paying for a repair. More points than
 * allowed keep the first ones.
 */
function keyPointsFromArgument(reply: JsonObject, note: (change: string) => void): void {
  const given = Array.isArray(reply.keyPoints) ? reply.keyPoints.filter(isText) : [];
  if (given.length > KEY_POINTS.count) {
    reply.keyPoints = given.slice(0, KEY_POINTS.count);
    note(`kept the first ${KEY_POINTS.count} keyPoints`);
    return;
  }
  if (given.length > 0 || !isText(reply.argument)) return;
  const sentences = reply.argument
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map(sentence => sentence.trim())
    .filter(sentence => sentence !== '' && sentence.length <= KEY_POINTS.chars)
    .slice(0, 3);
  if (sentences.length === 0) return;
  reply.keyPoints = sentences;
  note("filled keyPoints with the argument's first sentences");
}

/** changeReason exactly when changedPosition: a stray reason is dropped, a missing one says what changed. */
function coherentChange(reply: JsonObject, previousPosition: string | undefined, note: (change: string) => void): void {
  if (reply.changedPosition === false && 'changeReason' in reply) {
    dropField(reply, 'changeReason', 'changedPosition is false', note);
  } else if (reply.changedPosition === true && !isText(reply.changeReason)) {
    reply.changeReason =
      previousPosition === undefined
        ? 'No reason given.'
        : `No reason given; the previous position was: ${previousPosition}`;
    note('changedPosition is true without a changeReason: recorded that no reason was given');
  }
}

/** The moderator's open disagreements, each once. */
export const verdictNormalizer: ReplyNormalizer = (reply, note) => {
  dedupeArray(reply, 'openDisagreements', undefined, 'open disagreement', note);
  return reply;
};

/** Questions already asked (or repeated within the reply) are dropped: the prompt forbids asking them again. */
export function questionsNormalizer(askedQuestions: readonly string[]): ReplyNormalizer {
  return (reply, note) => {
    const seen = new Set(askedQuestions.map(loose));
    updateArray(reply, 'questions', list =>
      list.filter(item => {
        const text = isObject(item) && typeof item.question === 'string' ? loose(item.question) : undefined;
        if (text === undefined) return true;
        if (seen.has(text)) {
          note(`dropped a repeated question "${String((item as JsonObject).question)}"`);
          return false;
        }
        seen.add(text);
        return true;
      }),
    );
    return reply;
  };
}

/** The normalizers applied in turn, each to what the one before returned (for a reply made of several parts). */
export function composedNormalizer(...normalizers: readonly ReplyNormalizer[]): ReplyNormalizer {
  return (reply, note) => normalizers.reduce((value, normalize) => normalize(value, note), reply);
}
