import { luaScript } from './redis-script.js';

/*
 * One shared breaker: a HASH with s (open; the key is absent when closed), u (open until), p (the
 * process holding the half-open probe) and pu (its lease's end). Each script repeats a transition of
 * breaker-state.ts and replies with the state it left: s, u, p, pu ('' and 0 when absent).
 */
const READ = `
local r = redis.call('HMGET', KEYS[1], 's', 'u', 'p', 'pu')
local s, u, p, pu = r[1], tonumber(r[2]) or 0, r[3], tonumber(r[4]) or 0
local function reply() return {s or 'closed', num(u), p or '', num(pu)} end
`;

/** KEYS breaker; ARGV by, untilMs, now, recordTtlMs. */
export const OPEN_BREAKER = luaScript(`${READ}
local by, untilMs, now, life = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if s == 'open' then
  if u > now then return reply() end
  if p and p ~= by and pu > now then return reply() end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 's', 'open', 'u', num(untilMs))
keep(KEYS[1], untilMs - now + life)
return {'open', num(untilMs), '', '0'}
`);

/** KEYS breaker; ARGV by. */
export const CLOSE_BREAKER = luaScript(`${READ}
if s == 'open' and p == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return {'closed', '0', '', '0'}
end
return reply()
`);

/** KEYS breaker; ARGV by, leaseMs, now, recordTtlMs. */
export const TAKE_PROBE = luaScript(`${READ}
local by, lease, now, life = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if s ~= 'open' or u > now then return reply() end
if p and p ~= by and pu > now then return reply() end
redis.call('HSET', KEYS[1], 'p', by, 'pu', num(now + lease))
keep(KEYS[1], lease + life)
return {'open', num(u), by, num(now + lease)}
`);

/** KEYS breaker. */
export const READ_BREAKER = luaScript(`${READ}
return reply()
`);
