import { describe, expect, it } from 'vitest';
import { WindowRing } from '../../src/store/window-ring.js';

// The rolling window's columns: slots keep their index while the ring wraps, grows and shrinks.
describe('WindowRing', () => {
  it('keeps every slot, oldest first, with its amounts, as it wraps and grows', () => {
    const ring = new WindowRing();
    const slots: number[] = [];
    // Wrap first (push 10, drop 8), then grow past the first capacity with the head mid-array.
    for (let i = 0; i < 10; i++) slots.push(ring.push(i, `l${i}`, i * 10, i, 2 * i, i % 2 === 0));
    for (let i = 0; i < 8; i++) ring.shift();
    for (let i = 10; i < 100; i++) slots.push(ring.push(i, `l${i}`, i * 10, i, 2 * i, i % 2 === 0));
    expect(ring.size).toBe(92);
    expect(slots).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (let s = ring.head; s < ring.tail; s++) {
      expect(ring.atOf(s)).toBe(s);
      expect([ring.amountOf(s, 0), ring.amountOf(s, 1), ring.amountOf(s, 2), ring.amountOf(s, 3)]).toEqual([s % 2 === 0 ? 1 : 0, s * 10, s, 2 * s]);
    }
    expect(ring.live(7)).toBe(false); // dropped
    expect(ring.live(8)).toBe(true);
    expect(ring.live(100)).toBe(false); // not yet pushed
  });

  it('gives memory back after a burst and keeps the slots it still holds', () => {
    const ring = new WindowRing();
    for (let i = 0; i < 5000; i++) ring.push(i, `l${i}`, 1, 1, 0, true);
    for (let i = 0; i < 4900; i++) ring.shift();
    expect(ring.size).toBe(100);
    for (let s = 4900; s < 5000; s++) expect(ring.atOf(s)).toBe(s);
    expect(ring.findLive('l4950')).toBe(4950);
    // The shrunk ring grows again without losing its order.
    for (let i = 5000; i < 9000; i++) ring.push(i, `l${i}`, 1, 1, 0, true);
    for (let s = ring.head; s < ring.tail; s++) expect(ring.atOf(s)).toBe(s);
  });

  it('finds a lease by id while it is live, never a given-back one, a dropped one or a charge', () => {
    const ring = new WindowRing();
    const a = ring.push(0, 'a', 5, 5, 0, true);
    ring.push(1, undefined, 3, 3, 0, false); // a later charge: no id
    const b = ring.push(2, 'b', 7, 7, 0, true);
    expect(ring.findLive('a')).toBe(a);
    expect(ring.findLive('b')).toBe(b);
    ring.kill(b);
    expect(ring.live(b)).toBe(false);
    expect(ring.findLive('b')).toBe(-1);
    ring.shift();
    expect(ring.findLive('a')).toBe(-1);
  });

  it('takes an amount off one window of a slot', () => {
    const ring = new WindowRing();
    const s = ring.push(0, 'a', 100, 60, 40, true);
    ring.subtract(s, 1, 30);
    ring.subtract(s, 3, 10);
    expect([ring.amountOf(s, 1), ring.amountOf(s, 2), ring.amountOf(s, 3)]).toEqual([70, 60, 30]);
  });
});
