/** A `chains.<name>` entry for router.config.ts: `chains: { support: ['a:m', 'b:m'] },` with a comment per place. */
export function chainSnippet(chain: string, order: ReadonlyArray<{ target: string; reason: string }>, note?: string): string {
  const name = /^[A-Za-z_$][\w$]*$/.test(chain) ? chain : JSON.stringify(chain);
  const lines = ['chains: {'];
  if (note) lines.push(`  // ${note}`);
  lines.push(`  ${name}: [`);
  for (const { target, reason } of order) lines.push(`    '${target.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}', // ${reason.replace(/\n/g, ' ')}`);
  lines.push('  ],', '},');
  return lines.join('\n');
}
