/**
 * Words that suggest a label: the simulator's stand-in for understanding. Each group names the
 * labels that mean the same (`high`, `urgent`, `critical`) and the cues that point to them; a cue
 * matches at the start of a word, so `charg` finds "charge" and "charged". These cover the labels
 * classification prompts ask for most: sentiment, priority, and the usual support teams.
 */
const GROUPS: ReadonlyArray<{ labels: readonly string[]; cues: readonly string[] }> = [
  {
    labels: ['positive', 'good', 'happy', 'satisfied', 'pleased'],
    cues: ['love', 'great', 'excellent', 'amazing', 'perfect', 'good', 'happy', 'thank', 'recommend', 'wonderful', 'best', 'delight', 'pleased', 'awesome', 'fantastic', 'nice', 'quick', 'helpful'],
  },
  {
    labels: ['negative', 'bad', 'unhappy', 'angry', 'dissatisfied'],
    cues: ['broke', 'damag', 'terrible', 'awful', 'bad', 'worst', 'hate', 'disappoint', 'late', 'never', 'wrong', 'poor', 'fail', 'slow', 'missing', 'again', 'useless', 'angry', 'complain', 'defect', 'faulty', 'cannot', "can't", "doesn't", 'not work'],
  },
  { labels: ['neutral', 'mixed'], cues: ['okay', 'fine', 'average', 'as expected', 'normal', 'neither'] },
  {
    labels: ['high', 'urgent', 'critical', 'p1', 'severe', 'blocker'],
    cues: ['outage', 'down', 'every', 'everyone', 'all customers', 'all users', '500', '502', '503', 'fail', 'crash', 'cannot', "can't", 'security', 'breach', 'data loss', 'urgent', 'critical', 'production'],
  },
  { labels: ['medium', 'normal', 'moderate', 'p2'], cues: ['slow', 'some ', 'intermittent', 'sometimes', 'degraded', 'workaround', 'delay'] },
  { labels: ['low', 'minor', 'trivial', 'p3'], cues: ['typo', 'cosmetic', 'question', 'feature request', 'suggestion', 'minor', 'nice to have', 'colour', 'color', 'wording'] },
  {
    labels: ['billing', 'payments', 'finance', 'accounting', 'invoicing'],
    cues: ['charg', 'invoice', 'payment', 'paid', 'refund', 'card', 'billing', 'bill', 'price', 'subscription', 'receipt', 'tax', 'credit', 'debit', 'fee', 'overcharg'],
  },
  {
    labels: ['shipping', 'delivery', 'logistics', 'fulfillment', 'fulfilment'],
    cues: ['deliver', 'package', 'parcel', 'shipment', 'shipping', 'courier', 'tracking', 'arriv', 'warehouse', 'lost', 'replacement', 'carrier', 'dispatch'],
  },
  {
    labels: ['platform', 'engineering', 'technical', 'tech', 'it', 'infrastructure', 'devops', 'backend'],
    cues: ['outage', 'down', 'error', '500', '502', '503', 'crash', 'bug', 'fail', 'api', 'server', 'checkout', 'site', 'website', 'app ', 'timeout', 'latency', 'deploy'],
  },
  { labels: ['support', 'account', 'accounts', 'customer service'], cues: ['password', 'account', 'sign in', 'log in', 'login', 'profile', 'locked', 'reset', 'username'] },
  { labels: ['sales'], cues: ['quote', 'pricing', 'demo', 'upgrade', 'enterprise', 'buy', 'purchase', 'trial'] },
];

/** The label groups a free-text field of this kind picks from, when its schema lists no options. */
const FIELD_LABELS: Readonly<Record<string, readonly string[]>> = {
  sentiment: ['positive', 'negative', 'neutral'],
  mood: ['positive', 'negative', 'neutral'],
  priority: ['low', 'medium', 'high'],
  severity: ['low', 'medium', 'high'],
  urgency: ['low', 'medium', 'high'],
  team: ['billing', 'shipping', 'platform', 'support', 'sales'],
  department: ['billing', 'shipping', 'platform', 'support', 'sales'],
  queue: ['billing', 'shipping', 'platform', 'support', 'sales'],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each group's cues as one pattern, compiled once. */
const CUE_PATTERNS = new Map(GROUPS.map((g) => [g, new RegExp(`(?<![\\p{L}\\p{N}])(?:${g.cues.map(escape).join('|')})`, 'giu')]));

/** How many times the cues of `label`'s group occur in `text`; 0 for a label in no group. */
export function cueCount(label: string, text: string): number {
  const group = GROUPS.find((g) => g.labels.includes(label.toLowerCase()));
  return group ? (text.match(CUE_PATTERNS.get(group)!) ?? []).length : 0;
}

/** The labels a field named `key` (a word of it, say `priority` of `ticketPriority`) usually takes; undefined for none. */
export function labelsForField(words: readonly string[]): readonly string[] | undefined {
  for (const word of [...words].reverse()) {
    const labels = FIELD_LABELS[word];
    if (labels) return labels;
  }
  return undefined;
}
