import { isIP } from 'node:net';

/** True for a host or address that only this machine can reach: `localhost`, 127.0.0.0/8, ::1 (also IPv4-mapped). */
export function isLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
