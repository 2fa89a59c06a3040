import { PACE_LUA } from './redis-pace-lua.js';
import { luaScript } from './redis-script.js';

/*
 * One budget lives in six keys sharing the hash tag `{key}` (one cluster slot), mirroring
 * MemoryStore's Window (budget-window.ts) and its paces (pace.ts, in Lua in redis-pace-lua.ts):
 *   req   ZSET leaseId -> admitted at          requests in the window (RPM: ZCARD, oldest: rank 0)
 *   tok   ZSET entry -> at                     every token entry in time order: `r:<leaseId>` for a
 *                                              request's reservation, `c:<seq>:<leaseId>` for a charge
 *   amt   HASH entry -> tokens,input,output    the amounts of each `tok` entry
 *   lease ZSET leaseId -> expires at           every lease in flight (concurrency: ZCARD)
 *   meta  HASH sum/isum/osum (amounts of all `tok` entries), win (last windowMs), cnt ('1': the
 *              budget counts over its window), seq (charge ids), ls (lease order), and the paces
 *   inf   HASH leaseId -> its record           what settling a lease in flight needs
 * `req`, `tok` and `amt` are written only for a budget that counts over its window (`cnt`), always
 * together; `meta` always lives at least as long, so an empty `tok` means zero sums (that heals
 * them after the window's keys expired).
 */

/** Trims the window: expired leases and entries; the sums healed. */
export const TRIM = `
local function trim(req, tok, amt, lease, meta, inf, now, win)
  local cutoff = num(now - win)
  redis.call('ZREMRANGEBYSCORE', req, '-inf', cutoff)
  local gone = redis.call('ZRANGEBYSCORE', lease, '-inf', num(now))
  for i = 1, #gone, 500 do redis.call('HDEL', inf, unpack(gone, i, math.min(i + 499, #gone))) end
  if #gone > 0 then redis.call('ZREMRANGEBYSCORE', lease, '-inf', num(now)) end
  local h = redis.call('HMGET', meta, 'sum', 'isum', 'osum')
  local stored = {tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0}
  local sums = {stored[1], stored[2], stored[3]}
  local expired = redis.call('ZRANGEBYSCORE', tok, '-inf', cutoff)
  for i = 1, #expired, 500 do
    local chunk = {unpack(expired, i, math.min(i + 499, #expired))}
    for _, v in ipairs(redis.call('HMGET', amt, unpack(chunk))) do
      local t, x, o = amounts(v)
      sums[1], sums[2], sums[3] = sums[1] - t, sums[2] - x, sums[3] - o
    end
    redis.call('HDEL', amt, unpack(chunk))
  end
  if #expired > 0 then redis.call('ZREMRANGEBYSCORE', tok, '-inf', cutoff) end
  if redis.call('ZCARD', tok) == 0 then sums = {0, 0, 0} end
  if (sums[1] ~= stored[1] or sums[2] ~= stored[2] or sums[3] ~= stored[3]) and redis.call('EXISTS', meta) == 1 then
    redis.call('HSET', meta, 'sum', num(sums[1]), 'isum', num(sums[2]), 'osum', num(sums[3]))
  end
  return sums
end

local function readSums(meta, tok)
  if redis.call('ZCARD', tok) == 0 then return {0, 0, 0} end
  local h = redis.call('HMGET', meta, 'sum', 'isum', 'osum')
  return {tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0}
end

local function writeSums(meta, sums)
  redis.call('HSET', meta, 'sum', num(sums[1]), 'isum', num(sums[2]), 'osum', num(sums[3]))
end
`;

/** The report of each window in ARGV from `at`: remaining, resetMs, limit per window ('' = none). */
export const REPORTS = `
local function readReports(at)
  local out = {}
  for d = 1, 4 do
    local base = at + (d - 1) * 3
    if ARGV[base] ~= '' and ARGV[base + 1] ~= '' then
      out[d] = {R = tonumber(ARGV[base]), reset = tonumber(ARGV[base + 1]), limit = tonumber(ARGV[base + 2])}
    end
  end
  return out
end

-- Re-anchors every reported window (MemoryBudgets.settle).
local function applyReports(paces, reports, lease, inf, win, rateLimited, now)
  for d = 1, 4 do
    local r = reports[d]
    if r then
      local p = paces[d]
      if not p or not active(p, now) then p = reportedPace(now); paces[d] = p end
      if not p.f and not (lease and lease.at < p.s) then refreshReported(p, r.R, r.reset, r.limit, now) end
      learnBurst(p, r.R, r.reset, r.limit, win, rateLimited)
      if lease then syncPace(p, r.R, r.reset, lease.at, lease.mark[d], inflightAfter(inf, lease, d, now), now, d == 1, r.limit)
      else syncPace(p, r.R, r.reset, nil, nil, nil, now, d == 1, r.limit) end
    end
  end
end
`;

/**
 * KEYS req, tok, amt, lease, meta, inf; ARGV now, windowMs, tokens, input, output, leaseId,
 * leaseTtlMs, rpm, tpm, itpm, otpm, concurrency, burstMs ('' = none).
 */
export const ACQUIRE = luaScript(PACE_LUA + TRIM + `
local req, tok, amt, lease, meta, inf = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local now, win = tonumber(ARGV[1]), tonumber(ARGV[2])
local cost = {1, tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])}
local leaseId, leaseTtl = ARGV[6], tonumber(ARGV[7])
local limits = {tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])}
local concurrency, burstMs = tonumber(ARGV[12]), tonumber(ARGV[13])

local sums = trim(req, tok, amt, lease, meta, inf, now, win)
redis.call('HSET', meta, 'win', num(win))
keep(meta, win + leaseTtl)
for d = 2, 4 do
  if limits[d] and cost[d] > limits[d] then return {'too_large'} end
end

local paces = loadPaces(meta)
local loaded = wasLoaded(paces)
local waitMs, reason = 0, 'provider'
local REASONS = {'rpm', 'tpm', 'itpm', 'otpm'}
for d = 1, 4 do
  local limit, p = limits[d], paces[d]
  if limit and burstMs then
    local initial = configuredBurst(limit, win, burstMs)
    if not p or not p.f then p = newPace(limit / win, initial, initial, limit, true, INF, now); paces[d] = p
    else p.v, p.n, p.c = limit / win, initial, limit end
  elseif p and not active(p, now) then p = nil; paces[d] = nil end
  if p then
    local w = waitFor(p, cost[d], now)
    if w > waitMs then
      waitMs = w
      if p.f then reason = REASONS[d] else reason = 'provider' end
    end
  end
end
savePaces(meta, paces, loaded)
if waitMs > 0 then return {reason, num(waitMs)} end
if concurrency and redis.call('ZCARD', lease) >= concurrency then return {'concurrency'} end
if limits[1] and redis.call('ZCARD', req) >= limits[1] then
  local oldest = redis.call('ZRANGE', req, 0, 0, 'WITHSCORES')
  if oldest[2] == nil then return {'rpm', num(win)} end
  return {'rpm', num(tonumber(oldest[2]) + win - now)}
end
for d = 2, 4 do
  local limit = limits[d]
  if limit and sums[d - 1] + cost[d] > limit then
    local sum, freed, start = sums[d - 1], 0, 0
    while true do
      local page = redis.call('ZRANGE', tok, start, start + 199, 'WITHSCORES')
      if #page == 0 then break end
      local members = {}
      for i = 1, #page, 2 do members[#members + 1] = page[i] end
      local values = redis.call('HMGET', amt, unpack(members))
      for j = 1, #members do
        local t, x, o = amounts(values[j])
        freed = freed + ({t, x, o})[d - 1]
        if sum - freed + cost[d] <= limit then return {REASONS[d], num(tonumber(page[2 * j]) + win - now)} end
      end
      start = start + 200
    end
    return {REASONS[d], num(win)}
  end
end

local seq = redis.call('HINCRBY', meta, 'ls', 1)
local marks = {'', '', '', ''}
for d = 1, 4 do
  local p = paces[d]
  if p then marks[d] = num(take(p, cost[d])) end
end
savePaces(meta, paces, wasLoaded(paces))
local counts = limits[1] or limits[2] or limits[3] or limits[4]
if counts then
  local entry = 'r:' .. leaseId
  redis.call('ZADD', req, num(now), leaseId)
  redis.call('ZADD', tok, num(now), entry)
  redis.call('HSET', amt, entry, num(cost[2]) .. ',' .. num(cost[3]) .. ',' .. num(cost[4]))
  writeSums(meta, {sums[1] + cost[2], sums[2] + cost[3], sums[3] + cost[4]})
  redis.call('HSET', meta, 'cnt', '1')
  keep(req, win)
  keep(tok, win)
  keep(amt, win)
else
  redis.call('HSET', meta, 'cnt', '0')
end
redis.call('ZADD', lease, num(now + leaseTtl), leaseId)
redis.call('HSET', inf, leaseId, table.concat({num(now), int(seq), num(now + leaseTtl), num(cost[2]), num(cost[3]), num(cost[4]), marks[1], marks[2], marks[3], marks[4]}, ','))
keep(lease, leaseTtl)
keep(inf, leaseTtl)
return {'ok'}
`);

/** Gives back a request's window entry (a request that never reached the provider). */
export const FORGET = `
local function forgetEntry(req, tok, amt, meta, leaseId)
  redis.call('ZREM', req, leaseId)
  local entry = 'r:' .. leaseId
  local v = redis.call('HGET', amt, entry)
  if not v then return end
  local t, x, o = amounts(v)
  redis.call('HDEL', amt, entry)
  redis.call('ZREM', tok, entry)
  local sums = readSums(meta, tok)
  if redis.call('ZCARD', tok) > 0 then sums = {sums[1] - t, sums[2] - x, sums[3] - o} end
  if redis.call('EXISTS', meta) == 1 then writeSums(meta, sums) end
end

-- Takes a lease out of flight: its record, or nil when it is unknown or has outlived its TTL.
local function endLease(lease, inf, leaseId, now)
  redis.call('ZREM', lease, leaseId)
  local rec = parseLease(redis.call('HGET', inf, leaseId) or nil)
  redis.call('HDEL', inf, leaseId)
  if rec and rec.untilT > now then return rec end
  return nil
end
`;

/** KEYS req, tok, amt, lease, meta, inf; ARGV leaseId, sent ('1' | '0'), now. */
export const RELEASE = luaScript(PACE_LUA + TRIM + FORGET + `
local req, tok, amt, lease, meta, inf = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local leaseId, now = ARGV[1], tonumber(ARGV[3])
local rec = endLease(lease, inf, leaseId, now)
if ARGV[2] == '1' then return 0 end
forgetEntry(req, tok, amt, meta, leaseId)
if not rec then return 0 end
local paces = loadPaces(meta)
for d = 1, 4 do
  local p = paces[d]
  if p and active(p, now) and rec.mark[d] ~= nil then
    refill(p, now)
    giveBack(p, rec.cost[d])
  end
end
savePaces(meta, paces, wasLoaded(paces))
return 1
`);
