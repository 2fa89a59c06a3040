/**
 * Whether a tenant's next attempt at a contended target budget should wait for the fleet's other
 * tenants (pure). Each tenant's service is what the fleet admitted for it in the rolling window,
 * divided by its share (start-time fair queueing's virtual time, fleet-wide). A tenant is held back
 * while some other tenant that is waiting somewhere in the fleet has had less service than it by more
 * than `slack` (in service units: one attempt of a share-1 tenant): room that frees then goes to
 * the one behind. A tenant alone, or with nobody else waiting, is never held back.
 */
export function heldBack(
  tenant: string, served: Readonly<Record<string, number>>, waiting: Iterable<string>,
  shareOf: (tenant: string) => number, slack = 0.5,
): boolean {
  const mine = (served[tenant] ?? 0) / shareOf(tenant);
  for (const other of waiting) {
    if (other === tenant) continue;
    if ((served[other] ?? 0) / shareOf(other) + slack < mine) return true;
  }
  return false;
}
