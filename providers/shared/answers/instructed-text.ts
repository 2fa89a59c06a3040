import { countOf } from './answer-limits.js';
import { arithmeticAsked, capitalAsked } from './facts.js';
import { pickOption } from './pick-option.js';
import type { PromptContext } from './prompt-context.js';
import { summarySentence } from './summary.js';

const QUOTE = '(?:"([^"\\n]+)"|“([^”\\n]+)”|\'([^\'\\n]+)\'|`([^`\\n]+)`)';
const ECHO_QUOTED = new RegExp(
  String.raw`\b(?:say|reply|respond|answer|return|print|output|write|type)\s+(?:back\s+)?(?:with\s+)?(?:only\s+|exactly\s+|just\s+|precisely\s+)?(?:the\s+(?:single\s+)?(?:word|words|phrase|text|string)\s*:?\s*)?${QUOTE}`,
  'iu',
);
const ECHO_WORD = /\b(?:reply|respond|answer)\s+(?:only\s+)?with\s+(?:only\s+|exactly\s+|just\s+)?(?:the\s+)?(?:single\s+)?word\s+([\p{L}\p{N}_-]+)/iu;
const ECHO_AFTER_COLON = /\b(?:repeat(?:\s+after\s+me)?|echo|repeat\s+(?:back\s+)?(?:this|the\s+following)(?:\s+\w+)?)\s*:\s*(\S.*?)\s*$/imu;

// Each rule first looks for a word it cannot match without, so a long prompt costs a few scans
// for plain substrings instead of a dozen case-insensitive Unicode regexes.

/** The words the prompt asks to have said back: `Say "pong"`, `Reply with the word OK`, `Repeat after me: ...`. */
function echoed(text: string, lower: string): string | undefined {
  const quoted = /["“'`]/.test(text) ? ECHO_QUOTED.exec(text) : null;
  if (quoted) return (quoted[1] ?? quoted[2] ?? quoted[3] ?? quoted[4])!;
  const word = lower.includes('word') ? ECHO_WORD.exec(text)?.[1] : undefined;
  if (word !== undefined) return word;
  if (!lower.includes('repeat') && !lower.includes('echo')) return undefined;
  return ECHO_AFTER_COLON.exec(text)?.[1]?.replace(/^["“'`]|["”'`]$/g, '');
}

const ONLY = /\b(?:only|just the|alone|nothing else|one word|single word|no (?:other|extra) (?:text|words))\b/i;

/** A capital or a sum the question asks for: bare when it asks for the answer only. */
function fact(ctx: PromptContext, lower: string): string | undefined {
  const sum = /\d/.test(ctx.question) ? arithmeticAsked(ctx.question) : undefined;
  if (sum !== undefined) return sum;
  const capital = lower.includes('capital') ? capitalAsked(ctx.question) : undefined;
  if (!capital) return undefined;
  return ONLY.test(`${ctx.question}\n${ctx.instructions}`) ? capital.capital : `The capital of ${capital.country} is ${capital.capital}.`;
}

const LABEL = String.raw`[\p{L}][\p{L}\p{N}_-]*`;
const OPTION_LIST = new RegExp(String.raw`(${LABEL}(?:\s*,\s*${LABEL})*\s*,?\s+or\s+${LABEL}|${LABEL}(?:\s*[/|]\s*${LABEL})+)`, 'gu');
/** What comes right before a list of options the answer must be one of. */
const OPTIONS_INTRO = /(?:\bas|\beither|\bbetween|\bone of|\bchoose|\bpick|\bselect|\banswer|\breply|\brespond|\bwith|\bword|\bis it|\bare they|:|\()\s*(?:the\s+)?(?:words?\s+)?$/i;

/** The options a prompt lists for its answer: "as positive, negative or neutral", "one word: billing, shipping or platform", "(yes/no)". */
export function listedOptions(text: string): string[] | undefined {
  // A list sits within one clause; only clauses with an "or" or a slash can hold one.
  for (const clause of text.split(/[.!?;\n]+/)) {
    if (!/\sor\s|[/|]/i.test(clause)) continue;
    for (const m of clause.matchAll(OPTION_LIST)) {
      if (!OPTIONS_INTRO.test(clause.slice(Math.max(0, m.index - 40), m.index))) continue;
      const options = m[1]!.split(/\s*(?:,|\/|\||\bor\b)\s*/).map((o) => o.trim()).filter(Boolean);
      if (options.length >= 2 && options.length <= 8) return options;
    }
  }
  return undefined;
}

/** One of the listed options: the one the subject points to (`pickOption`), else the first. */
function choice(ctx: PromptContext): string | undefined {
  const options = listedOptions(ctx.question) ?? (ctx.instructions ? listedOptions(ctx.instructions) : undefined);
  return options && (pickOption(options, ctx.subject) ?? options[0]);
}

const SUMMARISE = /\b(?:summari[sz]e|sum up|tl;?dr|(?:give|write)\s+(?:me\s+)?a\s+summary)\b/i;

const APOLOGY = /\b(?:apologi[sz]e|say sorry|(?:write|draft)\s+an?\s+apology)\b(?:\s+to\s+[\p{L}\s]+?)?\s+for\s+(.+?)(?:[.!?](?:\s|$)|$)/iu;

/** An apology for what the prompt names: "We are sorry for the late delivery of order 1043." */
function apology(text: string, lower: string): string | undefined {
  if (!lower.includes('apolog') && !lower.includes('sorry')) return undefined;
  const what = APOLOGY.exec(text)?.[1];
  return what ? `We are sorry for ${what.replace(/^(?:my|our)\b/i, 'your').trim()}.` : undefined;
}

const STEPS = new RegExp(String.raw`\b(?:in|with|using|into)?\s*(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:simple\s+|easy\s+|short\s+|quick\s+)?steps\b`, 'i');
const ACCOUNT_TASK = /\b(?:password|account|log ?in|sign ?in|login|profile|username|e-?mail|two-factor|2fa|settings)\b/i;
const EXTRA_STEPS = ['Follow the instructions on the screen.', 'Save the change.', 'Confirm it from the email you get.', 'Check the result.', 'Contact support if it still does not work.'];

/** "a customer resets a forgotten password" as an instruction: "Reset a forgotten password". */
function imperative(task: string): string {
  const clause = task.trim().replace(/[.?!]+$/, '');
  const m = /^(?:(?:a|an|the|your|our|my)\s+)?(?:customer|user|person|someone|client|member|people|you|i|we|they|one)\s+(?:can\s+|should\s+|would\s+|could\s+)?([\p{L}]+)\s+(.*)$/iu.exec(clause);
  const verb = m ? m[1]!.replace(/(?<=(?:s|sh|ch|x|z))es$/i, '').replace(/(?<!s)s$/i, '') : undefined;
  const sentence = m ? `${verb} ${m[2]}` : clause.replace(/^to\s+/i, '');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** The numbered steps of a how-to: open the settings, do the task, then sign in again (for an account task) or check it. */
function steps(text: string, lower: string): string | undefined {
  if (!lower.includes('step')) return undefined;
  const sentence = text.split(/(?<=[.!?])\s+/).find((s) => STEPS.test(s));
  if (!sentence) return undefined;
  const n = Math.min(10, countOf(STEPS.exec(sentence)![1]!) ?? 3);
  const task = /\bhow\s+(?:to\s+)?(.+?)\s*[.?!]*$/i.exec(sentence)?.[1] ?? /\bsteps?\s+(?:to|for)\s+(.+?)\s*[.?!]*$/i.exec(sentence)?.[1];
  if (!task) return undefined;
  const account = ACCOUNT_TASK.test(task);
  const first = account ? 'Open the account settings.' : 'Open the page or app where this is done.';
  const last = account ? 'Sign in again to check that it worked.' : 'Check that it worked.';
  const middle = `${imperative(task)}.`;
  const plan = n === 1 ? [middle] : n === 2 ? [first, middle] : [first, middle, ...EXTRA_STEPS.slice(0, n - 3), last];
  return plan.map((step, i) => `${i + 1}. ${step}`).join('\n');
}

/**
 * The answer to a prompt whose instructions a simulator can follow, or undefined when it has none
 * it recognises. In order: say back the words it asks for; a sum or a country's capital; one of the
 * options it lists; a one-sentence summary; an apology for what it names; numbered steps of a
 * how-to. The rules read shapes and cue words (see lexicon.ts), not meaning, and never a case by name.
 */
export function instructedText(ctx: PromptContext): string | undefined {
  const question = ctx.lower.question;
  const echo = echoed(ctx.question, question) ?? (ctx.instructions ? echoed(ctx.instructions, ctx.lower.instructions) : undefined);
  if (echo !== undefined) return echo;
  const known = fact(ctx, question);
  if (known !== undefined) return known;
  const chosen = choice(ctx);
  if (chosen !== undefined) return chosen;
  if ((question.includes('summ') || question.includes('tl')) && SUMMARISE.test(ctx.question)) return summarySentence(ctx);
  return apology(ctx.question, question) ?? steps(ctx.question, question);
}
